Feature: IETF rate-limit fields (IETF-1)

  Any profile, feature ietf-headers (profiles.md;
  draft-ietf-httpapi-ratelimit-headers-11). With DIALECT=ietf every other
  scenario reads Limit, Remaining and Reset from these fields too (q, r and
  now + t).

  @IETF-1 @feature:ietf-headers
  Scenario Outline: <id> [IETF-1] RateLimit-Policy and RateLimit
    "IETF-1: RateLimit-Policy and RateLimit are valid structured-field lists
    (RFC 9651); the policy's q and w match the configured N and W;
    RateLimit's r follows the same rules as Remaining and t the same as
    Reset − now." Where the response also carries X-RateLimit-*, r equals
    Remaining and now + t equals Reset (±1 s); t never exceeds W + 1 s; r is
    0 on a 429.
    Given a fresh key
    When N requests are sent with the key
    And the next request with the key is refused with 429
    Then every response carried valid IETF fields with q N, w W, r as Remaining and t as Reset minus now

    @profile:sliding-log @id:IETF-1-01
    Examples:
      | id        |
      | IETF-1-01 |

    @profile:fixed-window @id:IETF-1-02
    Examples:
      | id        |
      | IETF-1-02 |
