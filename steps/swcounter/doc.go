// Package swcounter holds the steps of the sliding-window-counter design
// (SWC-1 to SWC-7; SWC-7's are the sliding log's): windows of W on the
// grid of WINDOW_ALIGN (the epoch's, the key's, or one grid), a request allowed while p·(1 − (t − s)/W) + c < N — the
// bound per grid window, the weighted bound across a window's start
// (package bound), no refusal while the estimate is well below N,
// concurrent requests on a fresh key, the refusal and the headers.
package swcounter
