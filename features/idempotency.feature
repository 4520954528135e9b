Feature: Idempotent replays spend nothing (AC6, FR-6)

  @AC6 @FR-6 @id:AC6-01
  Scenario: AC6-01 [AC6] a replay gets the cached response and spends nothing
    "AC6 / FR-6: a replay with the same Idempotency-Key and an identical body
    gets the first response's status and body again and spends nothing: the
    next fresh request's Remaining is one below the first response's."
    Given a fresh device bucket
    When I send a ride to the bucket
    And I replay the last request
    Then the replay has the first response's status and body
    And the response carries valid rate-limit headers
    And the next fresh ride's Remaining is 1 below the first response's

  @AC6 @FR-6 @extended @id:AC6-02
  Scenario: AC6-02 [AC6] concurrent identical requests spend one unit
    "N concurrent identical requests spend one unit." Five bursts, each of 16
    identical requests with its own key, spend five units.
    Given a fresh device bucket
    When 5 rounds of 16 identical rides, one Idempotency-Key per round, are sent concurrently
    Then none of the concurrent rides got a 5xx
    And the next fresh ride's Remaining is the limit minus 6

  @AC6 @FR-6 @extended @id:AC6-03
  Scenario: AC6-03 [AC6] the same key with a different body is never the cached response
    "The same key with a different body is never answered with the cached
    response: 422 or 409, or processing as a new request, are accepted."
    Given a fresh device bucket
    When I send a ride to the bucket
    And I send the same Idempotency-Key with a different body
    Then the response is not the cached first response
