// Package prd holds the steps of the PRD's device-bucket design (spec
// 001/002: AC1-AC9, FR-3-FR-8): quota, window, idempotency, the address
// fallback, bad input, the feature flag, concurrency, credentials and the
// X-RateLimit-* headers. Its World is one scenario's device bucket under
// test, the last ride and the last batch of rides; a failure is charged to
// a broken first request of a fresh bucket (cause.go).
package prd
