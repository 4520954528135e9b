Feature: Sliding log: at most N allowed in any window of length W (SL-1 … SL-8)

  Profile sliding-log (profiles.md; spec/002, spec/003 sliding_window).
  Every scenario uses a fresh key (KEY, KEY_FORMAT) and its own client
  address; windows of seconds (RL_WINDOW=3s) keep a run short.

  @SL-1 @SL-2 @profile:sliding-log @id:SL-1-01
  Scenario: SL-1-01 [SL-2] a same-second burst gets exactly N
    "SL-2: N+1 requests of one key sent within one second: exactly N allowed."
    "SL-1: For one key, no window of length W holds more than N allowed requests."
    Given a fresh key
    When N+1 requests are sent with the key within one second
    Then exactly N of them were allowed and the rest refused with 429
    And no window of length W held more than N allowed requests of the key

  @SL-1 @profile:sliding-log @id:SL-1-02
  Scenario: SL-1-02 [SL-1] bursts at three phases of any window grid
    "SL-1: For one key, no window of length W holds more than N allowed
    requests." A limiter whose windows sit on a grid (a sliding-window
    counter, a fixed window) lets a burst just before a grid window ends be
    followed by more just after it. Three keys burst W/3 apart, each W + 1 s
    after its first request, and then ask every tick (W/30, at least 100 ms)
    until W − 1 s after the burst began: whatever the grid's phase, one
    burst ends just before a boundary and is probed just after it. The
    verdict stands only when the bursts and probes covered every phase of W.
    When each of 3 fresh keys sends a request, then W plus 1 second later N requests at its own third of W and one every tick until W minus 1 second after them
    Then no window of length W held more than N allowed requests of the key

  @SL-3 @SL-1 @profile:sliding-log @id:SL-3-01
  Scenario: SL-3-01 [SL-3] concurrent requests on a fresh key
    "SL-3: N+k concurrent requests on a fresh key: exactly N allowed." Five
    fresh keys race at once, each on its own client: a slow target spreads
    one batch's decisions, and a race one batch misses is caught by another.
    Given a fresh key
    When N+5 requests are sent concurrently with each of 5 fresh keys
    Then each key got exactly N allowed and the rest refused with 429
    And no window of length W held more than N allowed requests of the key

  @SL-4 @profile:sliding-log @id:SL-4-01
  Scenario: SL-4-01 [SL-4] allowed again after Retry-After
    "SL-4: A key whose allowed requests in the last W + 1 s number fewer than
    N is allowed. After a 429, a request sent once Retry-After + 1 s has passed
    is allowed."
    Given a fresh key
    When N requests are sent with the key
    And the next request with the key is refused with 429
    Then a request sent once Retry-After plus 1 second has passed is allowed
    And no request of the key was refused while fewer than N allowed ones lay in the last W plus 1 second

  @SL-5 @profile:sliding-log @id:SL-5-01
  Scenario: SL-5-01 [SL-5] refused requests do not extend the block
    "SL-5: Requests refused with 429 do not move the time at which the key is
    allowed again." Refused requests are sent every 250 ms until the first
    allowed request has left the window. With penalties claimed it needs an
    instance without them: a refusal there starts a penalty (PN-4 checks
    refusals under it).
    Given an instance whose refusals start no penalty
    And a fresh key
    When N requests are sent with the key
    Then requests refused meanwhile do not keep the key refused once its first allowed request has left the window

  @SL-6 @profile:sliding-log @id:SL-6-01
  Scenario: SL-6-01 [SL-6] the 429
    "SL-6: Status 429, Retry-After integer seconds in [1, W], body matching
    LIMITED_BODY; a retry value in the body equals Retry-After." Retry-After
    must also not exceed the time until the oldest allowed request leaves
    the window (+1 s).
    Given a fresh key
    When N requests are sent with the key
    And 2 seconds pass
    And the next request with the key is refused with 429
    Then the 429 has Retry-After in [1, W] and a body matching LIMITED_BODY
    And Retry-After is at most the time until the oldest allowed request leaves the window plus 1 second

  @SL-7 @profile:sliding-log @id:SL-7-01
  Scenario: SL-7-01 [SL-7] headers count the log
    "SL-7: Limit = N on every response; Remaining = N − allowed requests in
    the current window; Reset = t_oldest + W (±1 s)."
    Given a fresh key
    When N requests are sent with the key
    And the next request with the key is refused with 429
    Then every response carried Limit N, Remaining N minus the allowed requests, and Reset at the oldest allowed request plus W

  @SL-8 @profile:sliding-log @id:SL-8-01
  Scenario: SL-8-01 [SL-8] keys are independent
    "SL-8: Keys are independent; a request without the key's header is keyed
    by client address."
    Given a fresh key
    When N requests are sent with the key
    And the next request with the key is refused with 429
    Then another fresh key from the same client address gets N requests allowed

  @SL-8 @profile:sliding-log @id:SL-8-02
  Scenario: SL-8-02 [SL-8] without the key, the client address
    "SL-8: Keys are independent; a request without the key's header is keyed
    by client address."
    Given a fresh client address
    When N requests are sent without the key
    Then the next request without the key is refused with 429
    And a request without the key from another fresh client address is allowed
