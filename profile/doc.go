// Package profile is the one registry of the designs rlspec verifies
// (profiles.md): for each profile its name, seed, algorithm, the settings
// it takes with their defaults, its core clauses, the extended features it
// may claim and the model of its design. The extended features and the
// clauses that check each of them are here too, once.
//
// Everything that needs to know which profiles exist asks this package:
// the CLI's help and validation, the suite's selection and
// conformance.json, the reference server, the race hunter's oracle, the
// self-test's claims and the generated tables of docs/profiles.md. A new
// design is a model in model/, its clauses in clause/, its steps and
// features, and one entry in registry.go.
package profile
