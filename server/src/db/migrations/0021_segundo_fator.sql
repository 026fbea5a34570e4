-- 'Verificação em duas etapas' (issue 42): a TOTP secret per user, the last time step accepted (a code is good
-- once), a secret being set up until its first code confirms it, the recovery codes as hashes, and the
-- administrador's settings (whether administradores and supervisores must have it).
ALTER TABLE usuarios
  ADD COLUMN totp_segredo text,
  ADD COLUMN totp_pendente text,
  ADD COLUMN totp_ultimo_passo bigint;

CREATE TABLE codigos_recuperacao (
  usuario uuid NOT NULL REFERENCES usuarios (id) ON DELETE CASCADE,
  hash text NOT NULL,
  usado_em timestamptz,
  PRIMARY KEY (usuario, hash)
);

CREATE TABLE configuracoes (
  chave text PRIMARY KEY,
  valor jsonb NOT NULL
);
