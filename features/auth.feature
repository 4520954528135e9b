Feature: Requests refused for their credentials spend nothing (extended)

  @FR-3 @extended @id:EXT-AUTH-01
  Scenario: EXT-AUTH-01 [extended] requests refused for their credentials spend nothing
    "A request refused (401 or 403) because its credentials are missing or
    wrong spends nothing of its bucket's quota: a refused request makes no
    state changes (FR-3). Runs when TARGET_HEADERS carries credentials."
    Given TARGET_HEADERS carries credentials
    And a fresh device bucket
    When I send a ride to the bucket
    And I send a ride to the bucket without the credentials and one with wrong credentials
    Then both were refused with 401 or 403
    And the next ride's Remaining is one below the first response's
