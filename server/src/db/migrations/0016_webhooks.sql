-- Webhooks (issue 27, DESIGN.md 'Quality control and integrations'): an administrador's subscriptions per project,
-- and their deliveries as an outbox. A trigger on alteracoes (0015) writes one delivery per subscribed webhook in
-- the writer's own transaction (the upload's, the correction's, the review's): a delivery exists exactly when its
-- change committed, and a restart loses none. Any server process takes due deliveries with FOR UPDATE SKIP LOCKED
-- (modules/webhooks/dispatcher.ts), so several servers deliver each one once.
CREATE TABLE webhooks (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  projeto uuid NOT NULL REFERENCES projetos (id) ON DELETE CASCADE,
  url text NOT NULL,
  eventos text[] NOT NULL
    CHECK (cardinality(eventos) > 0 AND eventos <@ ARRAY['registro criado', 'registro alterado', 'revisão']),
  segredo text NOT NULL,
  ativo boolean NOT NULL DEFAULT true,
  criado_por uuid REFERENCES usuarios (id) ON DELETE SET NULL,
  criado_em timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhooks_projeto ON webhooks (projeto) WHERE ativo;

-- One delivery of one change to one webhook. Its id is the `id` the receiver gets, the same on every attempt.
-- The change's facts are copied here, so a delivery does not depend on how long alteracoes keeps its rows.
CREATE TABLE webhook_entregas (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  webhook uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  alteracao bigint NOT NULL,
  evento text NOT NULL,
  projeto uuid NOT NULL,
  registro uuid NOT NULL,
  versao integer,
  em timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'pendente' CHECK (status IN ('pendente', 'entregue', 'falhou')),
  tentativas integer NOT NULL DEFAULT 0,
  -- When a pending delivery is due; while one is being sent, when its lease ends (another process may take it).
  proxima_tentativa timestamptz NOT NULL DEFAULT now(),
  -- Retries end 24 h after this: the change's time, or when 'Reenviar' queued it again.
  desde timestamptz NOT NULL,
  ultima_tentativa timestamptz,
  ultimo_status_http integer,
  ultimo_erro text,
  entregue_em timestamptz,
  UNIQUE (webhook, alteracao)
);
CREATE INDEX webhook_entregas_devidas ON webhook_entregas (proxima_tentativa) WHERE status = 'pendente';
CREATE INDEX webhook_entregas_log ON webhook_entregas (webhook, em DESC, id);

-- Set-based: one statement writing many changes (a bulk import) inserts their deliveries in one statement too.
CREATE FUNCTION webhook_entregas_das_alteracoes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO webhook_entregas (webhook, alteracao, evento, projeto, registro, versao, em, desde)
  SELECT w.id, a.id, a.evento, a.projeto, a.registro, a.versao, a.em, a.em
  FROM novas a
  JOIN webhooks w ON w.projeto = a.projeto AND w.ativo AND a.evento = ANY (w.eventos);
  -- Wakes the dispatchers of every server process once the writer commits (one notification per transaction).
  IF FOUND THEN
    PERFORM pg_notify('novus_webhooks', '');
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER alteracoes_webhooks AFTER INSERT ON alteracoes
  REFERENCING NEW TABLE AS novas
  FOR EACH STATEMENT EXECUTE FUNCTION webhook_entregas_das_alteracoes();
