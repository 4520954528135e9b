// Package faults is the one registry of rlspec's deliberate defects: All
// lists every fault of every design package (fault/prd, fault/slidinglog,
// fault/fixedwindow, fault/tokenbucket, fault/swcounter, fault/leakybucket,
// fault/penalties) in the self-test matrix's order, and Lookup, Parse and
// Apply find and apply one by name.
package faults
