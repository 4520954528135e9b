Feature: Store outages and restarts (FAIL-1 fail-closed, FAIL-2 fail-open, PS-1 persistence)

  The store is taken away mid-run: for the embedded reference rlspec stops
  PostgreSQL or holds SQLite's write lock itself; for another target through
  STORE_DOWN_CMD and STORE_UP_CMD. The target is restarted (PS-1): TARGET_IMAGE's
  containers on their volume, or the embedded reference's servers on their
  store. These scenarios run alone, one after another (one pause of the rest).

  @FAIL-1 @id:FAIL-1-01
  Scenario: FAIL-1-01 [FAIL-1] while the store is down nothing is allowed, and quota spent before stays spent
    "FAIL-1: While the store is down no request is allowed: 503 (or 429) with
    Retry-After, never 200; after it is back, quota spent before is still spent."
    Given the target claims fail-closed
    And a fresh device bucket with its first ride sent
    And I send a ride to the bucket
    When the store goes down
    And I send 3 rides to the bucket while the store is down
    Then none of them was allowed and each carried Retry-After
    When the store comes back
    Then within 30 seconds a ride to the bucket gets 200 with Remaining at most the limit minus 3

  @FAIL-2 @id:FAIL-2-01
  Scenario: FAIL-2-01 [FAIL-2] while the store is down requests are allowed and none gets a 5xx
    "FAIL-2: While the store is down requests are allowed (200) and none gets a 5xx."
    Given the target claims fail-open
    And a fresh device bucket with its first ride sent
    When the store goes down
    And I send 3 rides to the bucket while the store is down
    Then every one of them was allowed
    When the store comes back
    Then within 30 seconds a ride to the bucket gets 200

  @PS-1 @id:PS-1-01
  Scenario: PS-1-01 [PS-1] quota spent before a restart is still spent after it
    "PS-1: Quota spent before the container is restarted is still spent after
    it." rlspec restarts TARGET_IMAGE's containers on their volume (the
    embedded reference's servers on their store); this scenario runs alone.
    Given the target claims persistence and can be restarted
    And a fresh device bucket with its first ride sent
    And I send a ride to the bucket
    When the target restarts
    Then within 30 seconds of the restart a ride to the bucket gets 200 with Remaining at most the limit minus 3

  @PS-1 @profile:sliding-log @id:PS-1-02
  Scenario: PS-1-02 [PS-1] a key that spent N before a restart is still refused after it
    "PS-1: Quota spent before the container is restarted is still spent after
    it." A fresh key spends N, the target restarts, and the next request is
    refused. An allow counts only when the N and the request after the
    restart lay within W − 1 s (checked afterwards).
    Given the target claims persistence and can be restarted
    And a fresh key
    When N requests are sent with the key
    And the target restarts
    Then the next request with the key is refused with 429

  @PS-1 @profile:fixed-window @id:PS-1-03
  Scenario: PS-1-03 [PS-1] a key that spent its window before a restart is still refused after it
    "PS-1: Quota spent before the container is restarted is still spent after
    it." A fresh key spends N, the target restarts, and the next request is
    refused. An allow counts only when the N and the request after the
    restart lay in one window (checked afterwards).
    Given the target claims persistence and can be restarted
    And a fresh key
    When N requests are sent with the key
    And the target restarts
    Then the next request with the key is refused with 429

  @PS-1 @profile:token-bucket @id:PS-1-04
  Scenario: PS-1-04 [PS-1] a bucket drained before a restart is still drained after it
    "PS-1: Quota spent before the container is restarted is still spent after
    it." A fresh key is drained, the target restarts, and requests follow one
    after another up to the first 429: no more are allowed than the bucket
    refilled since the drain's 429 (R·Δt + 1). When the restart is so slow
    that a whole bucket refills meanwhile, the scenario is skipped.
    Given the target claims persistence and can be restarted
    And a fresh key
    When the key is drained
    And the target restarts
    Then after the restart the key gets no more requests allowed than the bucket refilled since it was drained
