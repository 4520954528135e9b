// Package swcounter holds the steps of the sliding-window-counter design
// (SWC-1 to SWC-4): windows of W on the epoch's grid, a request allowed
// while p·(1 − (t − s)/W) + c < N — the bound per grid window, the
// weighted bound across a window's start (package bound), no refusal
// while the estimate is well below N, and concurrent requests on a fresh
// key.
package swcounter
