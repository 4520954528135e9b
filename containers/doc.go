// Package containers runs implementations under test as Docker containers
// with testcontainers-go, following the image contract of the target
// contract: the container listens on TARGET_PORT (default 8080), reads
// BMTC_RATE_LIMIT_ENABLED, BMTC_RATE_LIMIT_PER_HOUR and
// BMTC_RATE_LIMIT_WINDOW_SECONDS, and is ready when its port answers HTTP
// with any status.
//
// StartTarget starts an image (optionally its flag-off twin for AC8, and
// several replicas sharing one named database volume) and returns their
// base URLs; Target.Terminate removes everything it started. BuildImage and
// BuildReferenceImage build a FROM scratch image from a static Go binary
// through the Docker API, so no docker CLI is needed; BuildHarnessImage
// builds the harness itself (rlspec:latest: rlspec and loadgen, reports in
// /reports) and RunToExit runs an image to completion, as `docker run`.
//
// Ports are published on 127.0.0.1 only. Ryuk is not used (there is no
// registry to pull it from): callers must call Terminate, also on failure
// and on interrupt. Every container and volume carries the label
// LabelManaged so leftovers can be found.
package containers
