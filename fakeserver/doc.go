// Package fakeserver is the reference HTTP server of rlspec: POST
// /v1/ride_summary and GET /healthz on the reference (model + SQLite store),
// configured per the image contract. It has no faults of its own: rlspec's
// self-tests replace its parts (model, store, keyer, handler) through
// Config.Wrap; package fault holds those replacements. See README.md.
package fakeserver
