// Package slidinglog holds the steps of the sliding-log design (SL-1 to
// SL-8): the window bound, Retry-After from the oldest allowed request,
// refusals that are not recorded, the headers and the phases of a burst.
package slidinglog
