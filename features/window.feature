Feature: The window resets once it has passed (AC4, FR-5)

  @AC4 @FR-5 @id:AC4-01
  Scenario: AC4-01 [AC4] a passed window gives a full bucket
    "AC4 / FR-5: once the window has passed, the next request gets 200,
    Remaining = limit - 1 and a new Reset of about now + window."
    Given a fresh device bucket with 0 units left
    And the window of the bucket has passed
    When I send a ride to the bucket
    Then the response status is 200
    And Remaining is the limit minus 1
    And Reset is about now plus the window

  @AC4 @FR-5 @extended @id:AC4-02
  Scenario: AC4-02 [AC4] the bucket resets once at the boundary
    "The bucket resets once: requests racing at the boundary never get more
    than limit 200s in the new window."
    Given a fresh device bucket with 0 units left
    When rides race for the bucket as its window passes
    Then the racing rides got at most the limit of 200s with distinct Remaining values
