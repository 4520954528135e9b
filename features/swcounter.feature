Feature: Sliding-window counter: a two-window weighted estimate of the sliding count (SWC-1 … SWC-7)

  Profile sliding-window-counter (profiles.md). N is RL_LIMIT, W is
  RL_WINDOW; windows of W on the grid WINDOW_ALIGN names (epoch, the
  default; key-grid, anchored at the key's first request; grid, learnt
  from another key's first Reset). A request at t in the window
  starting at s, with p allowed in the previous window and c already
  allowed in its own, is allowed iff p·(1 − (t − s)/W) + c < N. Every
  scenario uses a fresh key (KEY, KEY_FORMAT) and its own client address;
  decision times are placed anywhere in [send − 1 s, receipt + 1 s], so
  SWC-2 needs W of at least 5 s.

  @SWC-1 @profile:sliding-window-counter @id:SWC-1-01
  Scenario: SWC-1-01 [SWC-1] one grid window holds at most N
    "SWC-1: At most N allowed in any one grid window." A fresh key sends
    N+3 requests one after another in a window with at least W/2 left.
    Given a fresh key
    When a grid window with at least W/2 left is under way
    And N+3 requests of the key are sent one after another
    Then exactly N of them were allowed, all within one grid window

  @SWC-2 @profile:sliding-window-counter @id:SWC-2-01
  Scenario: SWC-2-01 [SWC-2] the previous window still weighs after it ended
    "SWC-2: No allowed request finds e ≥ N + 1 for every placement of the
    decision times." N allowed in one window weigh most of their count
    early in the next: a counter that forgets them (a fixed window) allows
    N again there.
    Given a fresh key
    When N requests of the key are allowed at once in a grid window
    And 1 second into the next window N−1 requests of the key are sent at once, and 2 more at once 2 seconds after them
    Then no allowed request of the key found the weighted count at N + 1 or more

  @SWC-3 @profile:sliding-window-counter @id:SWC-3-01
  Scenario: SWC-3-01 [SWC-3] late in the next window the previous one weighs little
    "SWC-3: A request that finds e ≤ N − 2 for every placement is allowed."
    The key spends N in a window and keeps retrying while refused
    (unless counts-refused is claimed: then the retries would count, so
    none is sent); 1.5 s before the next window ends the previous one
    weighs 1.5 s/W of its count. A counter that counts the refused retries
    without claiming it, or weighs the previous window the wrong way,
    refuses requests that fit. The N and the retries need only come back
    1 s (the tolerance) before their window ends, so a window with 1.5 s
    left serves and the scenario lasts under two windows and 1.5 s.
    Given a fresh key
    When a grid window with at least 1.5 seconds left is under way
    And N requests of the key are allowed at once and, unless refused requests count, 30 more sent at once while it is refused
    And 1.5 seconds before the next window ends N+1 requests of the key are sent at once
    Then no request of the key was refused while the weighted count was at most N − 2

  @SWC-4 @profile:sliding-window-counter @id:SWC-4-01
  Scenario: SWC-4-01 [SWC-4] concurrent requests on a fresh key
    "SWC-4: N + k concurrent requests on a fresh key: exactly N." Here k is
    5; the first-ever request of the key races its own insert.
    Given a fresh key
    When a grid window with at least W/2 left is under way
    And N+5 requests are sent with the key concurrently
    Then exactly N of them were allowed, all within one grid window

  @SWC-5 @profile:sliding-window-counter @id:SWC-5-01
  Scenario: SWC-5-01 [SWC-5] the refusal says when the estimate is below N
    "SWC-5: LIMITED_STATUS, LIMITED_BODY; a Retry-After (where sent) is in
    [1, W] and a request sent after it is allowed." With penalties claimed
    it needs an instance without them: a refusal there starts a penalty.
    Given an instance whose refusals start no penalty
    And a fresh key
    When a grid window with at least W/2 left is under way
    And N requests are sent with the key at once
    And the next request with the key is refused with 429
    Then the refusal has LIMITED_STATUS, a body matching LIMITED_BODY and, where sent, Retry-After in [1, W]
    And where Retry-After was sent, a request sent once it plus 1 second has passed is allowed

  @SWC-6 @profile:sliding-window-counter @id:SWC-6-01
  Scenario: SWC-6-01 [SWC-6] headers of a fresh key's first window
    "SWC-6: Limit = N; Remaining = N − ⌈e⌉ (±1); Reset = the end of the
    current grid window or the instant e falls below N." In a fresh key's
    first window no previous window weighs: e is the count allowed so far,
    and both readings of Reset are the window's end.
    Given a fresh key
    When a grid window with at least W/2 left is under way
    And N requests are sent with the key
    And the next request with the key is refused with 429
    Then every response carried Limit N, Remaining N minus the weighted count, and Reset at the grid window's end

  @SWC-7 @profile:sliding-window-counter @id:SWC-7-01
  Scenario: SWC-7-01 [SWC-7] keys are independent
    "SWC-7: Keys are independent; a request without the key's header is
    keyed by client address (as SL-8)."
    Given a fresh key
    When a grid window with at least W/2 left is under way
    And N requests are sent with the key at once
    And the next request with the key is refused with 429
    Then another fresh key from the same client address gets N requests allowed

  @SWC-7 @profile:sliding-window-counter @id:SWC-7-02
  Scenario: SWC-7-02 [SWC-7] without the key, the client address
    "SWC-7: Keys are independent; a request without the key's header is
    keyed by client address (as SL-8)."
    Given a fresh client address
    When a grid window with at least W/2 left is under way
    And N requests are sent without the key at once
    Then the next request without the key is refused with 429
    And a request without the key from another fresh client address is allowed
