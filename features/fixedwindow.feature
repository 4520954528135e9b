Feature: Fixed window: at most N allowed per window (FW-1 … FW-7)

  Profile fixed-window (profiles.md; spec/003 fixed_window, spec/004). The
  same scenarios run for WINDOW_ALIGN=epoch (window k is [kW, (k+1)W) in
  unix seconds) and WINDOW_ALIGN=first-request (a window opens at the first
  request after the previous one ended). Every scenario uses a fresh key.

  @FW-1 @profile:fixed-window @id:FW-1-01
  Scenario: FW-1-01 [FW-1] at most N per window, over two windows
    "FW-1: For one key, at most N allowed in each window." N+1 requests go
    out at once in a window 1.2 s old (more than the 1 s tolerance from
    either end), and N+1 more at once right after it ends: together, each
    batch comes back within about one request's time even from a slow
    target.
    Given a fresh key
    When the key's window is 1200 ms old
    And N+1 requests are sent with the key concurrently
    And the window ends
    And N+1 requests are sent with the key concurrently
    Then no window held more than N allowed requests of the key

  @FW-2 @profile:fixed-window @id:FW-2-01
  Scenario: FW-2-01 [FW-2] the boundary burst
    "FW-2: In any span of length W at most 2N (epoch) or 2N − 1
    (first-request) allowed." The key spends its window in its last 600 ms,
    then N+5 requests race at the boundary; the largest burst measured is
    reported.
    Given a fresh key
    When the key's window has 600 ms left
    And the key spends the rest of its window at once
    And the window ends
    And N+5 requests are sent with the key concurrently
    Then no span of length W held more allowed requests than the boundary bound

  @FW-2 @FW-1 @profile:fixed-window @id:FW-2-02
  Scenario: FW-2-02 [FW-2] after an idle gap that is not a multiple of W
    "FW-2: In any span of length W at most 2N (epoch) or 2N − 1
    (first-request) allowed." A window opened by the first request is not a
    grid of W anchored at the key's first-ever request (dialects.md,
    key-grid): the key's first request, then an idle gap that ends 400 ms
    before a later multiple of W after it; N spent there at once open a
    window, and N+1 more at once right after that multiple of W get no
    fresh one. Sent at once, each batch comes back within about one
    request's time even from a slow target. Decided after the fact from
    send and receive times.
    Given a fresh key
    When the key idles after its first request until 400 ms before a later multiple of W
    And N requests are sent with the key at once
    And that multiple of W after the key's first request passes
    And N+1 requests are sent with the key concurrently
    Then no span of length W held more allowed requests than the boundary bound

  @FW-3 @FW-1 @profile:fixed-window @id:FW-3-01
  Scenario: FW-3-01 [FW-3] the next window gives N fresh allowances
    "FW-3: The next window gives N fresh allowances; requests racing at the
    boundary get at most N." "FW-1: For one key, at most N allowed in each
    window." The key spends N in a window 1.2 s old; right after the window
    ends, N+1 more get exactly N.
    Given a fresh key
    When the key's window is 1200 ms old
    And the key spends the rest of its window at once
    And the window ends
    And N+1 requests are sent with the key one after another
    Then exactly N of them were allowed and the rest refused with 429

  @FW-3 @profile:fixed-window @id:FW-3-02
  Scenario: FW-3-02 [FW-3] requests racing at the boundary
    "FW-3: The next window gives N fresh allowances; requests racing at the
    boundary get at most N."
    Given a fresh key
    When the key's window has 600 ms left
    And the key spends the rest of its window at once
    And the window ends
    And N+20 requests are sent with the key concurrently
    Then exactly N of them were allowed and the rest refused with 429

  @FW-3 @profile:fixed-window @id:FW-3-03
  Scenario: FW-3-03 [FW-3] a client that kept retrying while refused
    "FW-3: The next window gives N fresh allowances — also to a client that
    kept retrying while refused (a refusal never moves the window)." The
    key spends N in a window 1.2 s old and retries every 200 ms while
    refused until 300 ms before the window ends; right after it ends, N+1
    more get exactly N.
    Given a fresh key
    When the key's window is 1200 ms old
    And the key spends the rest of its window at once
    And the key retries every 200 ms while refused, in the last 2 s before its window ends
    And the window ends
    And N+1 requests are sent with the key one after another
    Then exactly N of them were allowed and the rest refused with 429

  @FW-4 @profile:fixed-window @id:FW-4-01
  Scenario: FW-4-01 [FW-4] concurrent requests on a fresh key
    "FW-4: N+k concurrent requests on a fresh key (the first-ever request of
    that key races its own insert) get exactly N." Three fresh keys race at
    once, each on its own client: a race one batch misses in one run in
    twenty is caught by one of three.
    Given a fresh key
    When an epoch window is 200 ms old
    And N+20 requests are sent concurrently with each of 3 fresh keys
    Then each key got exactly N allowed and the rest refused with 429

  @FW-5 @profile:fixed-window @id:FW-5-01
  Scenario: FW-5-01 [FW-5] headers
    "FW-5: Limit = N (never derived from Remaining); Remaining = N − allowed
    so far in the window; Reset = the window's end; Retry-After on a 429 =
    seconds to the window's end (±1)."
    Given a fresh key
    When an epoch window is 200 ms old
    And N requests are sent with the key
    And the next request with the key is refused with 429
    Then every response carried Limit N, Remaining N minus the allowed requests so far, and Reset at the window's end

  @FW-6 @profile:fixed-window @id:FW-6-01
  Scenario: FW-6-01 [FW-6] the 429
    "FW-6: Status 429 with LIMITED_BODY (spec/004: status only)."
    Given a fresh key
    When an epoch window is 200 ms old
    And N requests are sent with the key
    And the next request with the key is refused with 429
    Then the 429 matches LIMITED_BODY

  @FW-7 @profile:fixed-window @id:FW-7-01
  Scenario: FW-7-01 [FW-7] without the key, the client address
    "FW-7: A request without the key is keyed by client address — or, with
    the feature anonymous-open, always allowed."
    Given a fresh client address
    When an epoch window is 200 ms old
    And N requests are sent without the key
    Then the next request without the key is refused with 429, or allowed with anonymous-open
    And a request without the key from another fresh client address is allowed

  @FW-3 @FW-1 @profile:fixed-window @align:key-grid @id:FW-3-04
  Scenario: FW-3-04 [FW-3] on the key's grid, the next window starts on the grid after an idle gap
    "FW-3: The next window gives N fresh allowances." Runs under
    WINDOW_ALIGN=key-grid only: the key's windows lie on a grid of W
    anchored at its first-ever request, so after an idle gap that is not a
    multiple of W the next window still starts on that grid. A window
    opened by the first request after the gap gives nothing fresh there.
    Given a fresh key
    When the key idles after its first request until 800 ms before a later multiple of W
    And N requests are sent with the key at once
    And that multiple of W after the key's first request passes
    Then N requests of the key are allowed in the grid's next window

  @FW-5 @FW-3 @profile:fixed-window @align:grid @id:FW-5-02
  Scenario: FW-5-02 [FW-5] on one grid, Reset keeps to the grid the first Reset gave
    "FW-5: Reset = the window's end." Runs under WINDOW_ALIGN=grid only:
    one grid of W for all keys, anchored at an instant rlspec learns from
    the first Reset. A grid whose phase drifts says a Reset off it a
    window later.
    Given a fresh key
    When the key's first request gives the grid's next boundary as its Reset
    And a request of the key is sent half a second after the boundary W after that one
    Then its Reset is the boundary W after that one, on the same grid
