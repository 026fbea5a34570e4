-- Quality control (issue 24): the flags the upload sets on a record, its review state and revision, the history of
-- decisions, every revision a technician sent, and the project's thresholds.
ALTER TABLE projetos
  ADD COLUMN precisao_maxima double precision NOT NULL DEFAULT 15,
  ADD COLUMN distancia_duplicata double precision NOT NULL DEFAULT 2;

ALTER TABLE registros
  -- [{codigo, valor}], set by the upload's statement (server/src/modules/revisao/flags.ts)
  ADD COLUMN flags jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN revisao text NOT NULL DEFAULT 'pendente' CHECK (revisao IN ('pendente', 'aprovado', 'reprovado')),
  ADD COLUMN versao integer NOT NULL DEFAULT 1,
  ADD COLUMN revisao_comentario text,
  ADD COLUMN revisao_campos jsonb NOT NULL DEFAULT '{}',
  ADD COLUMN revisado_por uuid REFERENCES usuarios (id) ON DELETE SET NULL,
  ADD COLUMN revisado_em timestamptz;

-- The review list: a project's field records newest first, all of them or by state; by flag through the GIN index.
CREATE INDEX registros_revisao_lista ON registros (projeto, data_hora DESC, id DESC)
  WHERE coletado AND conflito_de IS NULL;
CREATE INDEX registros_revisao ON registros (projeto, revisao, data_hora DESC, id DESC)
  WHERE coletado AND conflito_de IS NULL;
CREATE INDEX registros_flags ON registros USING gin (flags jsonb_path_ops) WHERE flags <> '[]';
-- The pace flag: a technician's previous record of a flow.
CREATE INDEX registros_tecnico_fluxo_data ON registros (tecnico, fluxo, data_hora);
-- A technician's corrections to fetch.
CREATE INDEX registros_reprovados ON registros (tecnico) WHERE revisao = 'reprovado';

-- Every decision, kept: who, when, on which revision, with the comment.
CREATE TABLE revisoes (
  id bigserial PRIMARY KEY,
  registro uuid NOT NULL REFERENCES registros (id) ON DELETE CASCADE,
  versao integer NOT NULL,
  estado text NOT NULL CHECK (estado IN ('pendente', 'aprovado', 'reprovado')),
  comentario text,
  campos jsonb NOT NULL DEFAULT '{}',
  usuario uuid REFERENCES usuarios (id) ON DELETE SET NULL,
  em timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX revisoes_registro ON revisoes (registro, em);

-- The revisions a correction replaced: the record's row holds the current one.
CREATE TABLE registro_versoes (
  registro uuid NOT NULL REFERENCES registros (id) ON DELETE CASCADE,
  versao integer NOT NULL,
  tecnico uuid REFERENCES usuarios (id) ON DELETE SET NULL,
  lat double precision,
  lng double precision,
  data_hora timestamptz,
  sincronizado_em timestamptz,
  dados jsonb NOT NULL,
  flags jsonb NOT NULL,
  -- [{slot, hash, size, mediaType}]: the photo rows of that revision (their bytes stay while referenced here)
  fotos jsonb NOT NULL,
  PRIMARY KEY (registro, versao)
);
