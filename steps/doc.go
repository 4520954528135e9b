// Package steps registers every step set of rlspec's features with godog:
// Initializer is what the acceptance runner hands godog, and registry.go
// its one list. Each scenario gets a fresh engine State (package
// scenario), the worlds its steps share (a device bucket, package prd; a
// key, package keyed) and every step set on them: one package per design
// (prd, slidinglog, fixedwindow, tokenbucket) or concern (penalties,
// ietfheaders, ops). A new design's steps are a new folder and one line
// in registerAll. The engine's types are re-exported under the names the
// runner uses (exports.go); the tests here drive whole scenarios by their
// step texts.
package steps
