Feature: No oversell under concurrency (AC7, FR-4)

  @AC7 @FR-4 @id:AC7-01
  Scenario: AC7-01 [AC7] more concurrent requests than units left
    "AC7 / FR-4: N concurrent fresh requests on a bucket with Q units left get
    exactly min(N, Q) 200s whose Remaining values are exactly Q-1 … Q-min(N,Q),
    no value twice; the rest get 429." Three buckets race at once, each on
    its own client: a slow target spreads one batch's decisions, and a race
    one batch misses is caught by another.
    Given 3 fresh device buckets with 5 units left each
    When 30 different rides are sent to each bucket concurrently, all at once
    Then each bucket got exactly min(N, Q) 200s with Remaining Q-1 down to Q-min(N, Q) each once and the rest 429

  @AC7 @FR-4 @id:AC7-02
  Scenario: AC7-02 [AC7] concurrent requests on a fresh bucket
    "AC7 / FR-4: N concurrent fresh requests on a bucket with Q units left get
    exactly min(N, Q) 200s whose Remaining values are exactly Q-1 … Q-min(N,Q),
    no value twice." Three buckets race at once, each on its own client.
    Given 3 fresh device buckets, each with its first ride sent
    When 16 different rides are sent to each bucket concurrently, all at once
    Then each bucket got exactly min(N, Q) 200s with Remaining Q-1 down to Q-min(N, Q) each once and the rest 429
