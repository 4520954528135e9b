Feature: Persistence (PS-1)

  The target is restarted mid-run: TARGET_IMAGE's containers on their volume,
  or the embedded reference's servers on their store. The scenario runs alone.

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
