Feature: Bypass identities (SL-10)

  Profile sliding-log, feature bypass (profiles.md; spec/002's admin
  bypass). BYPASS_HEADERS are the headers that make a request a bypass
  identity (the embedded reference: X-Role: admin).

  @SL-10 @profile:sliding-log @feature:bypass @id:SL-10-01
  Scenario: SL-10-01 [SL-10] a bypass identity is not limited and spends nothing
    "SL-10: A bypass identity gets N + 5 requests allowed (its responses may
    omit the rate-limit headers), and spends nothing of a normal identity's
    quota." The bypass requests carry the same key as the normal ones.
    Given a fresh key
    When N+5 requests are sent with the key as a bypass identity
    Then all of them were allowed
    And the key without the bypass headers then gets N requests allowed
