Feature: Rate-limit headers on every response (FR-7)
  Every response to a well-formed POST carries X-RateLimit-Limit,
  X-RateLimit-Remaining and X-RateLimit-Reset, 429s and idempotency replays
  included; 0 <= Remaining <= Limit while enabled; Reset is unix seconds in
  [now, now + window] (clock tolerance 2 s).

  @FR-7 @extended @id:FR-7-01
  Scenario: FR-7-01 [FR-7] headers on 200, replay and 429 responses
    "Every response to a well-formed POST carries X-RateLimit-Limit,
    X-RateLimit-Remaining, X-RateLimit-Reset (FR-7), 429s and idempotency
    replays included; 0 <= Remaining <= Limit while enabled; Reset is unix
    seconds in [now, now + window]."
    Given a fresh device bucket
    When I send a ride to the bucket
    And I replay the last request
    And the bucket is exhausted
    And I send a ride to the bucket
    Then the response status is 429
    And every response so far carried valid rate-limit headers

  @FR-7 @extended @id:FR-7-02
  Scenario: FR-7-02 [FR-7] headers on IP-fallback responses
    "Every response to a well-formed POST carries X-RateLimit-Limit,
    X-RateLimit-Remaining, X-RateLimit-Reset (FR-7)."
    When I send a ride without device_bucket
    And I send a ride with an invalid device_bucket "not-a-hash"
    Then every response so far carried valid rate-limit headers

  @FR-5 @extended @id:EXT-RESET-01
  Scenario: EXT-RESET-01 [extended] Reset is stable within a window
    "Within one window Reset is the same (±1 s) on every response of a bucket.
    Checks of 'does not move' compare samples taken at least 2 s apart inside
    one window (start the window with the bucket's first request)."
    Given a fresh device bucket
    When I send a ride to the bucket
    And I wait 2 seconds inside the window
    And I send a ride to the bucket
    Then the response status is 200
    And Reset is the same as on the first response
