// Package fleet runs one load from several loadgen generators at once on an
// orchestrator people already run, and merges what they measured.
//
// A Plan says what every generator runs (the image holding /loadgen, the
// settings, the absolute start instant they all wait for) and how many
// there are; each generator takes its own share of the rate and the keys
// (loadgen.ShareOf) by its index. An Orchestrator is the strategy that
// starts them and waits for them: Swarm starts them as the replicas of a
// Docker Swarm service on this machine's engine. Load runs a plan on an
// orchestrator and merges the generators' interval logs into one
// loadgen.Result, every generator listed, one that died with its error
// (what it logged before is in the totals, never dropped silently). Job is
// the same plan as a Kubernetes Indexed Job manifest, for a cluster this
// package cannot reach: JOB_COMPLETION_INDEX picks each pod's share.
package fleet
