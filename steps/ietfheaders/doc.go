// Package ietfheaders holds the step of the ietf-headers feature (IETF-1):
// every response's RateLimit-Policy and RateLimit fields agree with N, W
// and the X-RateLimit-* headers beside them.
package ietfheaders
