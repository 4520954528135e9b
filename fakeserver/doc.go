// Package fakeserver is the reference HTTP server of rlspec: POST
// /v1/ride_summary and GET /healthz on the reference store, configured per the
// image contract, with switchable faults (Fault) that each break one clause
// of the target contract, for rlspec's self-tests. See README.md.
package fakeserver
