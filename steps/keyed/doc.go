// Package keyed is what the designs that limit a key share (sliding log,
// fixed window, token bucket, penalties, IETF headers and the operations
// on a key): the World of one scenario's key (the key under test, the last
// request sent with it, the last run), the steps that make keys, send
// with them and let time pass, and the helpers the designs' checks share:
// the window, burst and rate, epoch windows, Retry-After and the 429 body,
// the bound checks (package bound) and their lower bounds. A design's
// step set holds the scenario's World and keeps its own state beside it.
package keyed
