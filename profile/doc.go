// Package profile is the one registry of the designs rlspec verifies
// (profiles.md): for each profile its name, seed, algorithm, the settings
// it takes with their defaults, its core clauses, the extended features it
// may claim, the model of its design, how it gives quota back and what
// sizes it (its quota, its quick size), the alignments it takes and its
// bounds (package bound's checks). The extended features and the clauses
// that check each of them are here too, once.
//
// Everything that needs to know which profiles exist asks this package:
// the CLI's help and validation, the suite's selection and
// conformance.json, the reference server, the race hunter's oracle, the
// self-test's claims and the generated tables of docs/profiles.md. Code
// outside a design's own folders asks the entry rather than switch on the
// name. A new design is a model in model/, its clauses in clause/, its
// steps and features, and one file here with its entry (prd.go,
// tokenbucket.go, …), listed in registry.go.
package profile
