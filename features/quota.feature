Feature: Spending and exhausting the quota (AC1, AC2, AC3, FR-3)

  @AC1 @id:AC1-01
  Scenario: AC1-01 [AC1] first request on a fresh bucket
    "AC1: the first request on a fresh bucket gets 200, Remaining = limit - 1."
    Given a fresh device bucket
    When I send a ride to the bucket
    Then the response status is 200
    And Remaining is the limit minus 1
    And Limit is the configured limit
    And Reset is about now plus the window

  @AC1 @id:AC1-02
  Scenario: AC1-02 [AC1] each request spends exactly one unit
    "AC1: the first request on a fresh bucket gets 200, Remaining = limit - 1."
    (and every further request one less).
    Given a fresh device bucket
    When I send a ride to the bucket
    And I send a ride to the bucket
    And I send a ride to the bucket
    Then the response status is 200
    And Remaining is the limit minus 3

  @AC2 @id:AC2-01
  Scenario: AC2-01 [AC2] the last unit
    "AC2: a bucket with one unit left gets 200 and Remaining = 0."
    Given a fresh device bucket with 1 unit left
    When I send a ride to the bucket
    Then the response status is 200
    And Remaining is 0

  @AC3 @FR-3 @id:AC3-01
  Scenario: AC3-01 [AC3] an exhausted bucket gets 429 rate_limited
    "AC3 / FR-3: an exhausted bucket gets 429, JSON body with
    "error": "rate_limited", Remaining = 0."
    Given a fresh device bucket with 0 units left
    When I send a ride to the bucket
    Then the response status is 429
    And the body is a JSON error "rate_limited"
    And Remaining is 0
    And the response carries valid rate-limit headers

  @AC3 @FR-3 @extended @id:AC3-02
  Scenario: AC3-02 [AC3] Retry-After on a 429
    "AC3 / FR-3: an exhausted bucket gets 429 ... and Retry-After (seconds,
    <= Reset - now + 1)."
    Given a fresh device bucket with 0 units left
    When I send a ride to the bucket
    Then the response status is 429
    And Retry-After is at most Reset minus now plus 1

  @AC3 @FR-3 @extended @id:AC3-03
  Scenario: AC3-03 [AC3] a 429 changes nothing
    "A 429 changes no state: later requests in the same window still get 429
    and Reset does not move." Samples are taken at least 2 s apart inside one
    window.
    Given a fresh device bucket with 0 units left
    When I send a ride to the bucket
    And I wait 2 seconds inside the window
    And I send a ride to the bucket
    Then the response status is 429
    And Remaining is 0
    And Reset is the same as on the first response
