// Package penalties holds the penalties feature's (sliding log) deliberate
// defects of the reference server, in one file per fault or per group of
// faults that break the same thing (window.go, queue.go, answers.go,
// keys.go): each function returns a fault.Fault whose Name is declared in
// this package (names.go) and is listed in the one registry, fault/faults.
package penalties
