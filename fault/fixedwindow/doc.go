// Package fixedwindow holds the fixed window's deliberate defects of the
// reference server, in one file per fault or per group of faults that break
// the same thing: each function returns a fault.Fault whose Name is declared
// in this package (names.go) and is listed in the one registry,
// fault/faults.
package fixedwindow
