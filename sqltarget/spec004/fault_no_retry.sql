-- Fault no-retry: the UPDATE-then-INSERT without the unique_violation retry.
-- The first-ever requests of a user race their own INSERT: the losers get
-- an error (which spec/004's edge function turns into an allow). The 200 ms
-- between the UPDATE that found no row and the INSERT stands for the
-- application's round trip and makes the race deterministic: calls released
-- together all miss the row.
-- rlspec:replaces decide
  UPDATE rpc_rate_limits
     SET call_count   = CASE WHEN window_start < v_now - v_window THEN 1 ELSE call_count + 1 END,
         window_start = CASE WHEN window_start < v_now - v_window THEN v_now ELSE window_start END
   WHERE user_id = v_user_id AND rpc_name = p_rpc_name
  RETURNING call_count INTO v_count;
  IF NOT FOUND THEN
    PERFORM pg_sleep(0.2);
    INSERT INTO rpc_rate_limits (user_id, rpc_name, call_count, window_start)
    VALUES (v_user_id, p_rpc_name, 1, v_now)
    RETURNING call_count INTO v_count;
  END IF;
