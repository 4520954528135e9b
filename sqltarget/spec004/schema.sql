-- spec/004 (DingleUP! rate limiting v2.0), as its document describes it:
-- one row per (user_id, rpc_name), reused across windows, and Supabase's
-- auth.uid() reading the caller from request.jwt.claims.
CREATE SCHEMA IF NOT EXISTS auth;

CREATE OR REPLACE FUNCTION auth.uid() RETURNS uuid
LANGUAGE sql STABLE AS $$
  SELECT nullif(nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub', '')::uuid
$$;

CREATE TABLE IF NOT EXISTS public.rpc_rate_limits (
  id           bigserial   PRIMARY KEY,
  user_id      uuid        NOT NULL,
  rpc_name     text        NOT NULL,
  call_count   integer     NOT NULL DEFAULT 1,
  window_start timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, rpc_name)
);

DROP INDEX IF EXISTS idx_rate_limits_lookup;
CREATE INDEX idx_rate_limits_lookup ON public.rpc_rate_limits (user_id, rpc_name);
