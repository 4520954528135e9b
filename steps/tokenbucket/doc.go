// Package tokenbucket holds the steps of the token-bucket design (TB-1 to
// TB-8): draining and idling a key, the arrival bound, steady clients, the
// 429 and the headers, and keys with buckets of their own.
package tokenbucket
