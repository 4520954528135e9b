// Package check holds the checks every design's steps share on the
// target's answers: reading an exchange's rate-limit fields in the
// target's dialect (HeadersOf, a violation when they are missing, a skip
// under DIALECT=status), the lower bound of what a run was allowed
// (AllowedAtLeast), and how an exchange reads in a violation (Describe,
// Truncate).
package check
