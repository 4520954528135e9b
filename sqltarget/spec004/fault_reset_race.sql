-- Fault reset-race: the window's expiry is read with a plain SELECT and the
-- reset written by a separate UPDATE, with no lock between them. Callers
-- racing at the boundary each see the old window expired and each reset the
-- count to 1: the new window lets more than p_max_calls through. The 200 ms
-- between the read and the write stand for the application's round trip and
-- make the race deterministic: calls released together all read the old window,
-- also on a loaded machine (50 ms was seen to miss FW-3-02 under make test's load).
CREATE OR REPLACE FUNCTION public.check_rate_limit(p_rpc_name text, p_max_calls integer, p_window_minutes integer)
RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  v_user_id uuid := auth.uid();
  v_now     timestamptz := now();
  v_window  interval := make_interval(mins => p_window_minutes);
  v_start   timestamptz;
  v_count   integer;
BEGIN
  IF v_user_id IS NULL THEN
    RETURN TRUE;
  END IF;
  LOOP
    SELECT window_start INTO v_start
      FROM rpc_rate_limits WHERE user_id = v_user_id AND rpc_name = p_rpc_name;
    IF FOUND AND v_start < v_now - v_window THEN
      PERFORM pg_sleep(0.2);  -- the application's round trip between the read and the write
      UPDATE rpc_rate_limits SET call_count = 1, window_start = v_now
       WHERE user_id = v_user_id AND rpc_name = p_rpc_name
      RETURNING call_count INTO v_count;
      EXIT;
    END IF;
    UPDATE rpc_rate_limits SET call_count = call_count + 1
     WHERE user_id = v_user_id AND rpc_name = p_rpc_name
    RETURNING call_count INTO v_count;
    IF FOUND THEN
      EXIT;
    END IF;
    BEGIN
      INSERT INTO rpc_rate_limits (user_id, rpc_name, call_count, window_start)
      VALUES (v_user_id, p_rpc_name, 1, v_now)
      RETURNING call_count INTO v_count;
      EXIT;
    EXCEPTION WHEN unique_violation THEN
      NULL;
    END;
  END LOOP;
  RETURN v_count <= p_max_calls;
END
$$;
