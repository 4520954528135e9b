package containers

import (
	"context"
	_ "embed"
)

// Harness image defaults.
const (
	// HarnessImage is the harness image `make image` builds.
	HarnessImage = "rlspec:latest"
	// HarnessPackage and LoadgenPackage are the commands in it.
	HarnessPackage = "github.com/rlspec/rlspec/cmd/rlspec"
	LoadgenPackage = "github.com/rlspec/rlspec/cmd/loadgen"
	// HarnessReportDir is where the image writes its reports
	// (REPORT_DIR): mount a volume there.
	HarnessReportDir = "/reports"
)

//go:embed harness.Dockerfile
var harnessDockerfile []byte

// BuildHarnessImage builds the harness image tag, FROM scratch: static
// /rlspec (the entrypoint, default command acceptance; the features are
// embedded in it) and /loadgen, REPORT_DIR=/reports, TMPDIR=/tmp, both
// world-writable (sticky), user 65532. WithPackage does not apply.
func BuildHarnessImage(ctx context.Context, tag string, opts ...BuildOption) error {
	return build(ctx, tag, func(buildConfig) imageSpec {
		return imageSpec{
			dockerfile: harnessDockerfile,
			binaries:   []binary{{"rlspec", HarnessPackage}, {"loadgen", LoadgenPackage}},
			dirs:       []dir{{"tmp/", 0o1777}, {"reports/", 0o1777}},
		}
	}, opts)
}
