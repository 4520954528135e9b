// Package docs holds rlspec's documents (ARCHITECTURE.md, the report
// screenshot) and the test that runs the commands of the README's front
// page, so the page cannot rot. There is no Go API here.
package docs

//go:generate go run ../internal/docgen/gen -root ..
