Feature: Penalties: progressive penalties for repeated violations (PN-1 … PN-5)

  Any profile, feature penalties (profiles.md; spec/003's progressive
  penalties). RL_PENALTIES gives the target's tiers count:duration,…; the
  v-th violation (a 429 from the algorithm) of a key within 24 h starts a
  penalty of the largest tier with count ≤ v. The scenarios talk to
  TARGET_URL_PENALTIES (default TARGET_URL): the profile's core clauses are
  checked on an instance without penalties. The embedded reference runs
  RL_PENALTIES=2:5s,3:8s,4:11s (windows of 3 s).

  @PN-1 @feature:penalties
  Scenario Outline: <id> [PN-1] a penalty refuses every request until penalty_until
    "PN-1: From the violation until penalty_until, every request of the key
    gets 429 with penalty_active: true, penalty_until (unix seconds, ≈
    violation + duration ± 1 s) and Retry-After ≈ penalty_until − now."
    Given the instance with penalties
    And a fresh key
    When the key violates its limit until a penalty starts
    Then the penalty lasts its tier's duration from the violation
    And every request of the key until penalty_until gets 429 under the penalty

    @profile:sliding-log @id:PN-1-01
    Examples:
      | id      |
      | PN-1-01 |

    @profile:fixed-window @id:PN-1-02
    Examples:
      | id      |
      | PN-1-02 |

  @PN-2 @feature:penalties
  Scenario Outline: <id> [PN-2] after the penalty the algorithm serves the key again
    "PN-2: After penalty_until (+1 s) the key is served by the algorithm again."
    Given the instance with penalties
    And a fresh key
    When the key violates its limit until a penalty starts
    Then once the penalty and the key's window have passed the key gets N requests allowed

    @profile:sliding-log @id:PN-2-01
    Examples:
      | id      |
      | PN-2-01 |

    @profile:fixed-window @id:PN-2-02
    Examples:
      | id      |
      | PN-2-02 |

  @PN-3 @feature:penalties
  Scenario Outline: <id> [PN-3] successive violations move through the tiers
    "PN-3: Successive violations move through the tiers in order; counts below
    the first tier give no penalty."
    Given the instance with penalties
    And a fresh key
    When the key violates its limit until a penalty starts
    Then the penalty started at the first tier's count, its 429s before it carrying none
    When once the penalty and the key's window have passed the key gets N requests allowed
    And the key violates its limit until a penalty starts
    Then the penalty lasts its tier's duration from the violation
    And the penalty started at the violation after the previous penalty's

    @profile:sliding-log @id:PN-3-01
    Examples:
      | id      |
      | PN-3-01 |

    @profile:fixed-window @id:PN-3-02
    Examples:
      | id      |
      | PN-3-02 |

  @PN-4 @feature:penalties
  Scenario Outline: <id> [PN-4] requests refused under a penalty spend nothing and are no violations
    "PN-4: Requests refused during a penalty neither spend quota nor count as
    violations." Requests are sent every 250 ms under the penalty; once it
    and the key's window have passed, the key has its whole quota again and
    its penalty did not grow.
    Given the instance with penalties
    And a fresh key
    When the key violates its limit until a penalty starts
    And every request of the key until penalty_until gets 429 under the penalty
    Then once the penalty and the key's window have passed the key gets N requests allowed

    @profile:sliding-log @id:PN-4-01
    Examples:
      | id      |
      | PN-4-01 |

    @profile:fixed-window @id:PN-4-02
    Examples:
      | id      |
      | PN-4-02 |

  @PN-4 @feature:penalties
  Scenario Outline: <id> [PN-4] refusals under a penalty do not escalate the next
    "PN-4: Requests refused during a penalty neither spend quota nor count as
    violations." Requests are sent every 250 ms in the penalty's last second
    but one, when the algorithm has room again (a penalty longer than W + 2
    s): once the penalty and the key's window have passed, the key has its
    whole quota — what refusals spent still lies in the window — and its
    next violation starts the tier of the next count of violations of the
    algorithm — refusals counted as violations reach a later tier.
    Decidable where that later tier's duration differs by at least 3 s
    (RL_PENALTIES; the embedded reference's 2:5s,3:8s,4:11s); SKIPPED
    otherwise.
    Given the instance with penalties
    And a fresh key
    When the key violates its limit until a penalty starts
    And a request of the key is sent every 250 ms from 2 seconds to 1 second before penalty_until, each refused under the penalty
    And the refusals under the penalty would start another tier's penalty were they counted
    And once the penalty and the key's window have passed the key gets N requests allowed
    And the key violates its limit until a penalty starts
    Then the penalty lasts its tier's duration from the violation
    And the penalty started at the violation after the previous penalty's

    @profile:sliding-log @id:PN-4-03
    Examples:
      | id      |
      | PN-4-03 |

    @profile:fixed-window @id:PN-4-04
    Examples:
      | id      |
      | PN-4-04 |

  @PN-5 @feature:penalties
  Scenario Outline: <id> [PN-5] a violation count older than 24 h starts again
    "PN-5: A violation count older than 24 h starts again at 1 (needs
    TARGET_DB to age it; SKIPPED otherwise)."
    Given the instance with penalties
    And a fresh key
    When the key violates its limit until a penalty starts
    And the key's violation record is aged by 24 hours through TARGET_DB
    And the key violates its limit once more
    Then that violation counted as the first

    @profile:sliding-log @id:PN-5-01
    Examples:
      | id      |
      | PN-5-01 |

    @profile:fixed-window @id:PN-5-02
    Examples:
      | id      |
      | PN-5-02 |
