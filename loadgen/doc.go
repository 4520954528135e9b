// Package loadgen is rlspec's load generator: an open-loop generator that
// schedules requests on an absolute timeline at a constant arrival rate and
// measures each latency from the request's intended send time, so that a
// stalled target cannot hide behind coordinated omission.
//
// The parts, vegeta style:
//
//   - Pacer: a pure function of elapsed time (ConstantPacer) saying when the
//     n-th request is due and how many are due by a given moment.
//   - Attacker: built with functional options, sends the load through a
//     Dialer (a lean HTTP/1.1 client by default) and records every result into
//     one HdrHistogram per worker; the worker histograms are merged per interval
//     and in total.
//   - Result / Report: requests, counts by status, corrected and uncorrected
//     latency percentiles, the scheduler's own lateness, threshold verdicts.
//   - Thresholds: "p95<3ms;p99<5ms;errors<0.1%" parsed and evaluated.
//   - WithQueue: for a leaky bucket, the design's model stepped per key with
//     the send times gives each allowed response's prescribed queueing delay
//     (Histograms.Queue); latency less it is the service latency
//     (Histograms.Service). Thresholds p99… include the queue, service_p99…
//     exclude it, queue_p99… are the delay.
//   - WriteHlog / ReadHlog / Merge: HdrHistogram interval logs, so runs on
//     several machines combine into one report.
//   - Share / WithStartAt: generator i of N takes its share of the rate and
//     keys on one absolute schedule; package loadgen/fleet starts the N on
//     Docker Swarm (or emits them as a Kubernetes Indexed Job) and merges.
//   - WriteHTML / WritePNG: latency over time, latency by percentile (log axes,
//     thresholds drawn) and throughput/errors over time, drawn with gonum/plot.
package loadgen
