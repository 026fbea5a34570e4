-- The audit log: one row per back-office write (clients, projects, users, imports), written in the write's own
-- transaction, with the values before and after (never a password hash). The author's name is kept beside the
-- reference so an entry still says who wrote it after that user is deleted.
CREATE TABLE auditoria (
  id bigserial PRIMARY KEY,
  em timestamptz NOT NULL DEFAULT now(),
  usuario uuid REFERENCES usuarios (id) ON DELETE SET NULL,
  usuario_nome text NOT NULL,
  entidade text NOT NULL,
  entidade_id text NOT NULL,
  acao text NOT NULL,
  antes jsonb,
  depois jsonb
);
CREATE INDEX auditoria_em ON auditoria (em);
CREATE INDEX auditoria_usuario_em ON auditoria (usuario, em);
