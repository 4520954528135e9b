Feature: Bad input (extended)

  @extended @id:EXT-BAD-01
  Scenario Outline: <id> [extended] bad input gets a 4xx JSON error and changes no quota: <kind>
    "Bad input: malformed or empty JSON, a non-object body, an oversized body,
    get a 4xx with a JSON error (rate-limit headers optional), never a 5xx, and
    never add or restore quota."
    When I send a ride without device_bucket
    And I send a bad body: <kind>
    Then the response is a 4xx with a JSON error body
    And the next ride without device_bucket gets Remaining at most the limit minus 2

    Examples:
      | id              | kind           |
      | EXT-BAD-01.1 | malformed JSON |
      | EXT-BAD-01.2 | empty body     |
      | EXT-BAD-01.3 | JSON array     |
      | EXT-BAD-01.4 | JSON string    |
      | EXT-BAD-01.5 | JSON null      |
      | EXT-BAD-01.6 | oversized body |
