-- Failed logins, per login and per address, in the database: every server on it counts the same attempts, so the
-- rate limit holds behind a load balancer. Rows older than the window are deleted as new failures come.
CREATE TABLE login_falhas (
  chave text NOT NULL,
  em timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_falhas_chave_em ON login_falhas (chave, em);
