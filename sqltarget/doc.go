// Package sqltarget drives a rate limiter that is a PostgreSQL function —
// spec/004's check_rate_limit(p_rpc_name, p_max_calls, p_window_minutes)
// RETURNS BOOLEAN — the way rlspec's verifiers drive an HTTP target
// (TARGET_DB=postgres://… TARGET_SQL=check_rate_limit).
//
// Transport is an http.RoundTripper: each request becomes one call of the
// function in its own transaction on its own pooled connection, after
// set_config('request.jwt.claims', '{"sub":"<uuid>"}', true), which is how
// Supabase's auth.uid() reads the caller. true answers 200, false 429, in
// the `status` dialect (no rate-limit headers); an error of the function
// answers 503 with the error in a JSON body, never an allow. The caller is
// the request's key header; a request without it calls with no claims
// (auth.uid() NULL). Keys that are not UUIDs are mapped to one by hashing,
// so any KEY_FORMAT works.
//
// Package spec004 beside it ships spec/004's SQL and faulty variants.
package sqltarget
