Feature: The feature flag (AC8, FR-8)

  @AC8 @FR-8 @id:AC8-01
  Scenario: AC8-01 [AC8] with the flag off the first request gets the sentinel
    "AC8 / FR-8: with the flag off ... the three headers are present and
    Remaining = RL_SENTINEL."
    Given the flag-off instance
    And a fresh device bucket
    When I send a ride to the bucket
    Then the response status is 200
    And Remaining is the sentinel

  @AC8 @FR-8 @id:AC8-02
  Scenario: AC8-02 [AC8] with the flag off requests past the limit still get 200
    "AC8 / FR-8: with the flag off, requests past the limit still get 200, the
    three headers are present and Remaining = RL_SENTINEL."
    Given the flag-off instance
    And a fresh device bucket
    When I send more rides than the limit to the bucket
    Then every response was 200 with the three headers and Remaining equal to the sentinel
