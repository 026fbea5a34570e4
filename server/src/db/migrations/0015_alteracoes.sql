-- The change feed (issue 27): one row per change of a field record, in the writer's own transaction, written by a
-- trigger on registros so every writer (upload, correction, review decision, point collected, import of pendentes)
-- is covered without knowing of it. GET /api/alteracoes reads it; the webhooks' outbox is filled from it.
CREATE TABLE alteracoes (
  id bigserial PRIMARY KEY,
  -- The writing transaction: the feed serves a row only once every transaction older than it has ended, so a row
  -- committed late can never appear behind a cursor already given (server/src/modules/alteracoes/queries.ts).
  xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  projeto uuid NOT NULL REFERENCES projetos (id) ON DELETE CASCADE,
  -- no foreign key: the row outlives nothing it needs, and a record's removal must not wait on the feed
  registro uuid NOT NULL,
  fluxo text NOT NULL,
  evento text NOT NULL CHECK (evento IN ('registro criado', 'registro alterado', 'revisão')),
  versao integer,
  em timestamptz NOT NULL DEFAULT now()
);
-- A project's feed in order.
CREATE INDEX alteracoes_projeto ON alteracoes (projeto, id);

-- A field record is a collected one that is not a competing collection (those are listed under their point, as
-- everywhere else). Its arrival is 'registro criado' (an upload, or a preloaded point collected); a new revision or
-- other values 'registro alterado'; a review decision 'revisão'. An update that changes none of these (a replay,
-- the photo slots, the zone, the UTM columns) writes nothing, so one upload gives one row and a retry none.
--
-- The row's id comes from the sequence after its transaction has an xid (this trigger runs after the registros
-- row was written, which assigned it): a transaction without an xid yet never holds an id below the feed's cursor.
CREATE FUNCTION novus_alteracao() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  evento text;
BEGIN
  IF TG_OP = 'INSERT' OR NOT OLD.coletado OR OLD.conflito_de IS NOT NULL THEN
    evento := 'registro criado';
  ELSIF NEW.versao IS DISTINCT FROM OLD.versao OR NEW.dados IS DISTINCT FROM OLD.dados
     OR NEW.lat IS DISTINCT FROM OLD.lat OR NEW.lng IS DISTINCT FROM OLD.lng
     OR NEW.data_hora IS DISTINCT FROM OLD.data_hora THEN
    evento := 'registro alterado';
  ELSIF NEW.revisao IS DISTINCT FROM OLD.revisao OR NEW.revisao_comentario IS DISTINCT FROM OLD.revisao_comentario
     OR NEW.revisao_campos IS DISTINCT FROM OLD.revisao_campos OR NEW.revisado_em IS DISTINCT FROM OLD.revisado_em THEN
    -- revisado_em too: every decision is one, also one that keeps the state (a second 'aprovado' by someone else)
    evento := 'revisão';
  ELSE
    RETURN NULL;
  END IF;
  INSERT INTO alteracoes (projeto, registro, fluxo, evento, versao)
  VALUES (NEW.projeto, NEW.id, NEW.fluxo, evento, NEW.versao);
  RETURN NULL;
END
$$;

CREATE TRIGGER registros_alteracao
  AFTER INSERT OR UPDATE OF coletado, conflito_de, versao, dados, lat, lng, data_hora, revisao, revisao_comentario,
    revisao_campos, revisado_em ON registros
  FOR EACH ROW WHEN (NEW.coletado AND NEW.conflito_de IS NULL) EXECUTE FUNCTION novus_alteracao();

-- The records collected before the feed existed, so a client reading from the start gets every one.
INSERT INTO alteracoes (projeto, registro, fluxo, evento, versao, em)
SELECT projeto, id, fluxo, 'registro criado', versao, COALESCE(sincronizado_em, created_at)
FROM registros
WHERE coletado AND conflito_de IS NULL
ORDER BY sincronizado_em, id;
