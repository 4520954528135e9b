Feature: Token bucket: B tokens refilled continuously at R per second (TB-1 … TB-8)

  Profile token-bucket (profiles.md; spec/003 token_bucket, spec/000
  "gradual refill"). B is RL_BURST, R is RL_RATE (tokens per second, may be
  fractional). Every scenario uses a fresh key (KEY, KEY_FORMAT) and its own
  client address; second-scale rates (RL_BURST=5 RL_RATE=2) keep a run
  short. A key is drained by requests one after another until one is
  refused with 429.

  @TB-1 @profile:token-bucket @id:TB-1-01
  Scenario: TB-1-01 [TB-1] a long idle fills the bucket, never more
    "TB-1: For one key, allowed requests in any interval [t1, t2] ≤ B + R·(t2
    − t1) + 1." The drained key idles twice the time that fills it, then 2B
    requests go out at once: a bucket that is not capped at B lets them all
    through. Sent together, they come back within about one request's time,
    where one after another on a slow target the tokens refilled meanwhile
    would cover them.
    Given a fresh key
    When the key is drained
    And the key idles 2·B/R seconds
    And 2B requests are sent with the key at once
    Then no interval held more than B + R·Δt + 1 allowed requests of the key

  @TB-2 @TB-1 @profile:token-bucket @id:TB-2-01
  Scenario: TB-2-01 [TB-2] a fresh key's burst
    "TB-2: A fresh key gets B allowed in a row, the next one 429." "TB-1: For
    one key, allowed requests in any interval [t1, t2] ≤ B + R·(t2 − t1) + 1."
    B+1 requests are released together just after a whole second: sent
    one after another they could outlast 1/R on a slow target, and a
    token come back in between.
    Given a fresh key
    When B+1 requests are sent with the key at once, just after a whole second
    Then exactly B of them were allowed and the rest refused with 429
    And no interval held more than B + R·Δt + 1 allowed requests of the key

  @TB-3 @profile:token-bucket @id:TB-3-01
  Scenario: TB-3-01 [TB-3] a drained key gets its tokens back
    "TB-3: A drained key that idles B/R + 1 s gets B allowed again; after
    idling k/R + 1 s (k < B) at least k." Here k is 1: the shortest idle,
    which a bucket that refills only whole periods of B/R (spec/000's
    binary reset) cannot serve.
    Given a fresh key
    When the key is drained
    And the key idles k/R + 1 seconds, k = 1
    Then at least k requests of the key are allowed in a row
    When the key is drained
    And the key idles B/R + 1 seconds
    Then B requests of the key are allowed in a row

  @TB-4 @profile:token-bucket @id:TB-4-01
  Scenario: TB-4-01 [TB-4] a steady client below the rate is never refused
    "TB-4: A client sending at 0.9·R for 10/R seconds after draining the
    bucket is never refused." Refill that drops fractions of a token, or
    restarts its clock on every request, fails this.
    Given a fresh key
    When the key is drained
    Then a client sending with the key at 0.9·R for 10/R seconds is never refused

  @TB-5 @TB-1 @profile:token-bucket @id:TB-5-01
  Scenario: TB-5-01 [TB-5] concurrent requests on a fresh key
    "TB-5: B + k concurrent requests on a fresh key: exactly B." (Plus the
    whole tokens refilled while the batch was decided, reported when any.)
    Given a fresh key
    When B+5 requests are sent with the key concurrently
    Then exactly B of them were allowed and the rest refused with 429
    And no interval held more than B + R·Δt + 1 allowed requests of the key

  @TB-6 @profile:token-bucket @id:TB-6-01
  Scenario: TB-6-01 [TB-6] the 429 says when a token is back
    "TB-6: Retry-After integer seconds in [1, ⌈1/R⌉ + 1]; a request sent
    after it is allowed." With penalties claimed it needs an instance
    without them: a refusal there starts a penalty (PN-4 checks refusals
    under it).
    Given an instance whose refusals start no penalty
    And a fresh key
    When the key is drained
    Then the 429 has Retry-After in [1, ⌈1/R⌉ + 1] and a body matching LIMITED_BODY
    And a request sent once Retry-After has passed is allowed

  @TB-7 @profile:token-bucket @id:TB-7-01
  Scenario: TB-7-01 [TB-7] headers
    "TB-7: Limit = B; Remaining = whole tokens left after this request; Reset
    unix seconds in [now, now + ⌈B/R⌉ + 1]."
    Given a fresh key
    When B+1 requests are sent with the key one after another
    Then every response carried Limit B, Remaining the whole tokens left, and Reset within ⌈B/R⌉ + 1 seconds

  @TB-8 @profile:token-bucket @id:TB-8-01
  Scenario: TB-8-01 [TB-8] keys have independent buckets
    "TB-8: Keys have independent buckets; a request without the key is keyed
    by client address, never by one bucket shared by every keyless client."
    Given a fresh key
    When the key is drained
    Then another fresh key from the same client address gets B requests allowed in a row

  @TB-8 @profile:token-bucket @id:TB-8-02
  Scenario: TB-8-02 [TB-8] without the key, the client address
    "TB-8: Keys have independent buckets; a request without the key is keyed
    by client address, never by one bucket shared by every keyless client."
    Given a fresh client address
    When the key is drained
    Then another fresh client address without the key gets B requests allowed in a row
