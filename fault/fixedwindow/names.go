package fixedwindow

import "github.com/rlspec/rlspec/fault"

// The names of this package's faults, each registered in fault/faults.
// Keep them stable: self-test reports and reproductions use them.

// FWBody answers a 429 with spec/003's body, {"error": "Rate limit
// exceeded", …}, where LIMITED_BODY expects spec/002's error code.
const FWBody fault.Name = "fw-body"

// FWBoundaryRace decides a window's expiry on a read outside the
// transaction: requests racing at the boundary each open a new window.
const FWBoundaryRace fault.Name = "fw-boundary-race"

// FWGridDrift is one grid for all keys (WINDOW_ALIGN=grid) whose phase
// drifts: each window lasts W + 1 s (a timer re-armed after the work it
// triggers), so the k-th window ends k seconds after the grid learnt from
// the first Reset says — fresh allowances come late (FW-3) and Reset
// moves off the grid (FW-5).
const FWGridDrift fault.Name = "fw-grid-drift"

// FWGridFirstRequest is FWKeyGrid the other way round: windows on the
// key's grid are claimed (WINDOW_ALIGN=key-grid) but each window is opened
// by the first request after the previous one ended. After an idle gap
// that is not a multiple of W the window starts at the request, so the
// grid's next window brings no fresh allowances when it should (FW-3) and
// two first-request windows put up to 2N inside one grid window (FW-1).
const FWGridFirstRequest fault.Name = "fw-grid-first-request"

// FWKeyGrid claims windows opened by the first request
// (WINDOW_ALIGN=first-request, spec/004) but keeps a grid of W anchored at
// the key's first-ever request: after an idle gap that is not a multiple
// of W, the next window still starts on that grid (dialects.md's
// key-grid), so 2N can be allowed within much less than W.
const FWKeyGrid fault.Name = "fw-key-grid"

// FWLimitFromRemaining is spec/003's middleware:
// w.Header().Set("X-RateLimit-Limit", fmt.Sprintf("%d", result.Remaining+1)).
const FWLimitFromRemaining fault.Name = "fw-limit-from-remaining"

// FWOneShort refuses the N-th request of a window (a count compared with
// >= N − 1, or a counter that starts at 1) while announcing Limit = N:
// over-blocking that an "at most N" check alone never sees, as it holds on
// a run that allowed too little. The checks of exactly N catch it: the next
// window's N fresh allowances (FW-3-01) and N + k concurrent requests on a
// fresh key (FW-4-01).
const FWOneShort fault.Name = "fw-one-short"

// FWRefusalMovesWindow ends a spent window W after its latest refusal (an
// expiry set again on every request, refused ones included): a client that
// keeps retrying while refused never gets its next window.
const FWRefusalMovesWindow fault.Name = "fw-refusal-moves-window"

// FWFirstRequestWindow claims epoch windows (WINDOW_ALIGN=epoch, spec/003)
// but opens each window at the key's first request, as spec/004 does.
const FWFirstRequestWindow fault.Name = "fw-first-request-window"

// FWInsertRace is spec/004's UPDATE-then-INSERT without the
// unique_violation retry (spec/003 likewise): the first requests of a key
// race their own insert and each is let through.
const FWInsertRace fault.Name = "fw-insert-race"

// FWOffByOne lets N+1 requests through per window (a count compared with
// > after it was incremented, or >= before).
const FWOffByOne fault.Name = "fw-off-by-one"

// FWAnonymousShared keys every request without the key by one bucket.
const FWAnonymousShared fault.Name = "fw-anonymous-shared"
