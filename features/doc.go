// Package features holds rlspec's Gherkin features: one or more scenarios per
// clause of the target contract's "Reading of the PRD". Every scenario is
// tagged with its clause (@AC1…@AC9, @FR-n, @extended) and a stable id
// (@id:RL-…), and its description quotes the clause it checks.
//
// The files are embedded so that the harness binary and `go test` run the
// same text without a working directory.
package features

import "embed"

// FS holds every *.feature file of this directory at its root.
//
//go:embed *.feature
var FS embed.FS
