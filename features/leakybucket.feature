Feature: Leaky bucket: a per-key queue of B places drained at R per second (LB-1 … LB-5)

  Profile leaky-bucket (profiles.md). B is RL_BURST, R is RL_RATE
  (requests per second), D the queued requests answered at once: RL_DELAY
  (default 0) under LB_MODE=delay, all B under LB_MODE=nodelay (nginx's
  nodelay: answered at once, their places freed at R — the token bucket of
  B + 1). A request that finds the queue non-empty waits its turn past the
  first D, one that finds it full is refused at once: an idle key holds
  B + 1 requests (the one in service and B queued). Every scenario uses a fresh key (KEY, KEY_FORMAT)
  and its own client address; second-scale rates (RL_BURST=5 RL_RATE=2)
  keep a run short.

  @LB-1 @profile:leaky-bucket @id:LB-1-01
  Scenario: LB-1-01 [LB-1] a burst leaves at R, not as a burst
    "LB-1: For one key, allowed responses leave no faster than R: over any
    span of their decision times [t1, t2], count ≤ 1 + D + R·(t2 − t1) (+1
    tolerance)." A queue that sleeps a fixed time, or frees its places at
    once, answers the burst as a burst; under nodelay the first burst
    leaves at once (D = B) and the second finds its places freed only at
    R.
    Given a fresh key
    When a burst of B+1 requests is sent with the key concurrently
    And a burst of B+1 requests is sent with the key concurrently
    Then no span of the key's allowed answers held more than 1 + D + R·Δt (+1)

  @LB-2 @profile:leaky-bucket @id:LB-2-01
  Scenario: LB-2-01 [LB-2] the queue holds B + 1, the rest are refused at once
    "LB-2: B + 1 + k concurrent requests on an idle key: k refused, each
    within 1 s of being sent; B + 1 allowed." Here k is 3.
    Given a fresh key
    When a burst of B+1+3 requests is sent with the key concurrently
    Then B+1 of them were allowed and the rest refused with 429, each within 1 second of its send

  @LB-3 @profile:leaky-bucket @id:LB-3-01
  Scenario: LB-3-01 [LB-3] a queued request waits its turn, no longer
    "LB-3: On an idle key, the i-th of a burst of queued requests is
    answered within i/R + 1 s of its send" — past the D answered at once:
    under nodelay every one within 1 s. Another key's requests are queued
    at the same time: one queue for all keys makes the key wait behind
    them.
    Given a fresh key
    When another fresh key queues B−1 requests and the key sends a burst of B+1 while they wait
    Then the i-th answer of the key came within max(i − D, 0)/R + 1 second of its send

  @LB-4 @profile:leaky-bucket @id:LB-4-01
  Scenario: LB-4-01 [LB-4] another key's full queue delays nobody
    "LB-4: One key's queue delays no other key's requests."
    Given a fresh key
    When another fresh key queues B+1 requests and the key sends one while they wait
    Then the key's request was allowed within 1 second of its send

  @LB-5 @profile:leaky-bucket @id:LB-5-01
  Scenario: LB-5-01 [LB-5] the refusal of a full queue
    "LB-5: LIMITED_STATUS, LIMITED_BODY, Retry-After where sent." Here the
    queue of an idle key is overrun by 3.
    Given a fresh key
    When a burst of B+1+3 requests is sent with the key concurrently
    Then each refusal has LIMITED_STATUS, a body matching LIMITED_BODY and, where sent, a readable Retry-After
