-- spec/004's check_rate_limit v2.0 as shipped: NULL user fails open, the
-- UPDATE-then-INSERT loop retries on unique_violation, the window resets in
-- place when window_start is older than the window.
CREATE OR REPLACE FUNCTION public.check_rate_limit(p_rpc_name text, p_max_calls integer, p_window_minutes integer)
RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  v_user_id uuid := auth.uid();
  v_now     timestamptz := now();
  v_window  interval := make_interval(mins => p_window_minutes);
  v_count   integer;
BEGIN
  IF v_user_id IS NULL THEN
    RETURN TRUE;
  END IF;
  -- rlspec:decide begin (faulty variants replace a region: fault_*.sql)
  LOOP
    -- rlspec:update begin
    UPDATE rpc_rate_limits
       SET call_count   = CASE WHEN window_start < v_now - v_window THEN 1 ELSE call_count + 1 END,
           window_start = CASE WHEN window_start < v_now - v_window THEN v_now ELSE window_start END
     WHERE user_id = v_user_id AND rpc_name = p_rpc_name
    RETURNING call_count INTO v_count;
    -- rlspec:update end
    IF FOUND THEN
      EXIT;
    END IF;
    BEGIN
      INSERT INTO rpc_rate_limits (user_id, rpc_name, call_count, window_start)
      VALUES (v_user_id, p_rpc_name, 1, v_now)
      RETURNING call_count INTO v_count;
      EXIT;
    EXCEPTION WHEN unique_violation THEN
      NULL; -- another caller inserted the row first: retry the UPDATE
    END;
  END LOOP;
  -- rlspec:decide end
  RETURN v_count <= p_max_calls;
END
$$;
