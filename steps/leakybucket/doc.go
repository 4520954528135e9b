// Package leakybucket holds the steps of the leaky-bucket design (LB-1 to
// LB-5): a key's queue of B places drained at R requests per second —
// the spacing of its answers, the bound of its queue, how long a queued
// request waits, queues that do not delay other keys, and the refusal of
// a full queue.
package leakybucket
