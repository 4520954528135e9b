-- Fault reset-race: the window's expiry is read with a plain SELECT and the
-- reset written by a separate UPDATE, with no lock between them. Callers
-- racing at the boundary each see the old window expired and each reset the
-- count to 1: the new window lets more than p_max_calls through. The second
-- between the read and the write stands for the application's round trip and
-- makes the race deterministic: calls released together all read the old
-- window, also on a loaded machine (50 ms was seen to miss FW-3-02 under make
-- test's load, and 200 ms once, on a CI-like run: a starved harness started
-- the batch's second call more than 200 ms after its first).
-- rlspec:replaces update
    DECLARE
      v_start timestamptz;
    BEGIN
      SELECT window_start INTO v_start
        FROM rpc_rate_limits WHERE user_id = v_user_id AND rpc_name = p_rpc_name;
      IF FOUND AND v_start < v_now - v_window THEN
        PERFORM pg_sleep(1);  -- the application's round trip between the read and the write
        UPDATE rpc_rate_limits SET call_count = 1, window_start = v_now
         WHERE user_id = v_user_id AND rpc_name = p_rpc_name
        RETURNING call_count INTO v_count;
      ELSE
        UPDATE rpc_rate_limits SET call_count = call_count + 1
         WHERE user_id = v_user_id AND rpc_name = p_rpc_name
        RETURNING call_count INTO v_count;
      END IF;
    END;
