Feature: Keying by client address when device_bucket is missing or invalid (AC5, AC9, FR-2)

  @AC5 @FR-2 @id:AC5-01
  Scenario: AC5-01 [AC5] requests without device_bucket share the address's quota
    "AC5 / FR-2: a missing device_bucket ... is keyed by the client address:
    such requests from one address share one quota."
    When I send a ride without device_bucket
    Then the response status is 200
    And Remaining is the limit minus 1
    When I send a ride without device_bucket
    Then Remaining is the limit minus 2

  @AC5 @FR-2 @id:AC5-02
  Scenario: AC5-02 [AC5] the address's quota is enforced
    "AC5: GIVEN device_bucket missing from body WHEN POST THEN fallback to
    ip:<addr> and enforce quota."
    Given the address bucket has 0 units left
    When I send a ride without device_bucket
    Then the response status is 429
    And the body is a JSON error "rate_limited"

  @AC5 @FR-2 @id:AC5-03
  Scenario: AC5-03 [AC5] other addresses have their own quota
    "such requests from one address share one quota (even with different
    invalid values), other addresses have their own."
    When I send a ride without device_bucket
    And I send a ride without device_bucket
    And I send a ride without device_bucket from another client address
    Then the response status is 200
    And Remaining is the limit minus 1

  @AC9 @FR-2 @id:AC9-01
  Scenario Outline: <id> [AC9] an invalid device_bucket falls back to the address: <kind>
    "AC9 / FR-2: a device_bucket that is not exactly 64 hex characters is keyed
    by the client address: such requests from one address share one quota."
    When I send a ride without device_bucket
    And I send a ride with an invalid device_bucket "<kind>"
    Then the response status is 200
    And Remaining is the limit minus 2

    Examples:
      | id              | kind           |
      | AC9-01.1     | not-a-hash     |
      | AC9-01.2     | 63 hex         |
      | AC9-01.3     | 65 hex         |
      | AC9-01.4     | 64 non-hex     |
      | AC9-01.5     | empty          |
      | AC9-01.6     | number         |

  @AC9 @FR-2 @id:AC9-02
  Scenario: AC9-02 [AC9] different invalid values share one quota
    "such requests from one address share one quota (even with different
    invalid values)."
    When I send a ride with an invalid device_bucket "not-a-hash"
    And I send a ride with an invalid device_bucket "63 hex"
    And I send a ride with an invalid device_bucket "64 non-hex"
    Then the response status is 200
    And Remaining is the limit minus 3

  @AC5 @FR-2 @extended @id:EXT-XFF-01
  Scenario: EXT-XFF-01 [FR-2] X-Forwarded-For from an untrusted peer is ignored
    "X-Forwarded-For from a peer that is not a trusted proxy never changes the
    key."
    When I send a ride without device_bucket and a spoofed X-Forwarded-For
    And I send a ride without device_bucket and a spoofed X-Forwarded-For
    Then the response status is 200
    And Remaining is the limit minus 2
