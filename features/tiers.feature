Feature: Tiers (SL-9)

  Profile sliding-log, feature tiers (profiles.md; spec/002's endpoint
  categories). RL_TIERS is a JSON file of the target's tiers
  [{"path", "method", "limit", "window", "key"}]; the profile's endpoint
  (TARGET_PATH, RL_LIMIT, RL_WINDOW) is one more.

  @SL-9 @profile:sliding-log @feature:tiers @id:SL-9-01
  Scenario: SL-9-01 [SL-9] each tier counts on its own
    "SL-9: Each tier enforces its own N and W; spending in one tier spends
    nothing in another." One key spends every tier in turn, the profile's
    endpoint last: each gets its own N allowed (with Limit its N), then a
    429 whose Retry-After lies within its own W.
    Given a fresh key
    When each tier in turn gets N requests of the key and one more
    Then every tier allowed its own N, said Limit N, and refused the next with Retry-After within its own W
