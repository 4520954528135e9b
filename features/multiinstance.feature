Feature: Several instances on one store (MI-1)

  Any profile, feature multi-instance (profiles.md; spec/003, spec/004).
  TARGET_URLS names running instances that share one store (TARGET_URL is
  the first); with TARGET_IMAGE or the embedded reference REPLICAS=n starts
  n of them on one store. Each profile has two scenarios: a concurrent burst
  spread round-robin over every instance, and quota spent through the first
  instance that must be spent on the others. With fewer than two instances
  they are skipped, never passed. Instances on one store contend for it: a
  request one of them did not decide (503 with Retry-After, its store busy)
  leaves the run without a verdict, unless the decided answers alone break
  the bounds; it runs again, then is skipped with the reason.

  @MI-1 @profile:prd @feature:multi-instance @id:MI-1-01
  Scenario: MI-1-01 [MI-1] concurrent rides over all instances on a bucket each instance has seen
    "MI-1: With several instances on one store the profile's bounds hold over
    the requests to all instances together." A fresh bucket gets one ride
    through each instance, is brought to Q ≤ 10 units left through the first
    (each ride spending exactly one unit of the shared bucket), then Q+5
    concurrent fresh rides are sent round-robin over the instances: exactly Q
    get 200, their Remaining Q-1 down to 0 each once, and the rest 429.
    Given the target runs on at least two instances
    And a fresh device bucket with one ride sent through each instance
    And the bucket is brought to at most 10 units left through the first instance
    When Q+5 different rides are sent to the bucket concurrently, round-robin over the instances
    Then exactly min(N, Q) got 200 with Remaining Q-1 down to Q-min(N, Q) each once and the rest 429

  @MI-1 @profile:prd @feature:multi-instance @id:MI-1-02
  Scenario: MI-1-02 [MI-1] a bucket spent through one instance is spent on the others
    "MI-1: With several instances on one store the profile's bounds hold over
    the requests to all instances together." A fresh bucket gets one ride
    through each instance (each spends one unit of the same bucket), the rest
    of the limit is spent through the first; then a ride through each other
    instance is refused. An allow counts only when every ride lay in one
    window (checked afterwards; otherwise the scenario runs again, then skips).
    Given the target runs on at least two instances
    And a fresh device bucket with one ride sent through each instance
    When the rest of the limit is spent through the first instance
    Then a ride to the bucket through each other instance is refused with 429

  @MI-1 @profile:sliding-log @feature:multi-instance @id:MI-1-03
  Scenario: MI-1-03 [MI-1] concurrent requests on a fresh key over all instances
    "MI-1: With several instances on one store the profile's bounds hold over
    the requests to all instances together." A fresh key sends one request
    through each instance, then N+5 concurrent requests round-robin over the
    instances: exactly N of all of them allowed.
    Given the target runs on at least two instances
    And a fresh key
    When one request with the key is sent through each instance
    And N+5 requests are sent with the key concurrently, round-robin over the instances
    Then exactly N of the key's requests were allowed and the rest refused with 429
    And no window of length W held more than N allowed requests of the key

  @MI-1 @profile:sliding-log @feature:multi-instance @id:MI-1-04
  Scenario: MI-1-04 [MI-1] a key spent through one instance is spent on the others
    "MI-1: With several instances on one store the profile's bounds hold over
    the requests to all instances together." A fresh key sends one request
    through each instance, the rest of N through the first; then a request
    through each other instance is refused (an allow counts only when the key's
    requests lay in one window).
    Given the target runs on at least two instances
    And a fresh key
    When one request with the key is sent through each instance
    And the rest of N is spent with the key through the first instance
    Then the next request with the key through each other instance is refused with 429
    And no window of length W held more than N allowed requests of the key

  @MI-1 @profile:fixed-window @feature:multi-instance @id:MI-1-05
  Scenario: MI-1-05 [MI-1] concurrent requests on a fresh key over all instances
    "MI-1: With several instances on one store the profile's bounds hold over
    the requests to all instances together." Early in a window a fresh key
    sends one request through each instance, then N+5 concurrent requests
    round-robin over the instances: exactly N of all of them allowed.
    Given the target runs on at least two instances
    And a fresh key
    When an epoch window is 200 ms old
    And one request with the key is sent through each instance
    And N+5 requests are sent with the key concurrently, round-robin over the instances
    Then exactly N of the key's requests were allowed and the rest refused with 429
    And no window held more than N allowed requests of the key

  @MI-1 @profile:fixed-window @feature:multi-instance @id:MI-1-06
  Scenario: MI-1-06 [MI-1] a key spent through one instance is spent on the others
    "MI-1: With several instances on one store the profile's bounds hold over
    the requests to all instances together." Early in a window a fresh key
    sends one request through each instance, the rest of N through the first;
    then a request through each other instance is refused (an allow counts
    only when the key's requests lay in one window).
    Given the target runs on at least two instances
    And a fresh key
    When an epoch window is 200 ms old
    And one request with the key is sent through each instance
    And the rest of N is spent with the key through the first instance
    Then the next request with the key through each other instance is refused with 429
    And no window held more than N allowed requests of the key

  @MI-1 @profile:token-bucket @feature:multi-instance @id:MI-1-07
  Scenario: MI-1-07 [MI-1] concurrent requests on a fresh key over all instances
    "MI-1: With several instances on one store the profile's bounds hold over
    the requests to all instances together." A fresh key sends one request
    through each instance, then B+5 concurrent requests round-robin over the
    instances: exactly B of all of them allowed (plus the whole tokens
    refilled meanwhile).
    Given the target runs on at least two instances
    And a fresh key
    When one request with the key is sent through each instance
    And B+5 requests are sent with the key concurrently, round-robin over the instances
    Then exactly B of the key's requests were allowed and the rest refused with 429
    And no interval held more than B + R·Δt + 1 allowed requests of the key

  @MI-1 @profile:token-bucket @feature:multi-instance @id:MI-1-08
  Scenario: MI-1-08 [MI-1] a key drained through one instance is drained on the others
    "MI-1: With several instances on one store the profile's bounds hold over
    the requests to all instances together." A fresh key sends one request
    through each instance, the rest of B through the first; then a request
    through each other instance is refused (an allow counts only when the
    requests took less than 1/R within one whole second).
    Given the target runs on at least two instances
    And a fresh key
    When one request with the key is sent through each instance
    And the rest of B is spent with the key through the first instance
    Then the next request with the key through each other instance is refused with 429
    And no interval held more than B + R·Δt + 1 allowed requests of the key
