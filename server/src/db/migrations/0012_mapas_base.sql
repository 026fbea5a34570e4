-- A project's basemap package (issue 23, DESIGN.md 'Maps and tiles'): one PMTiles v3 archive per project, either
-- uploaded (its bytes in the blob store under their SHA-256, in the archives' own space, apart from the photos)
-- or read from a URL by ranges. The header's and metadata's facts are kept so the device and the form need not
-- read the archive to know it.
CREATE TABLE mapas_base (
  projeto uuid PRIMARY KEY REFERENCES projetos (id) ON DELETE CASCADE,
  origem text NOT NULL CHECK (origem IN ('arquivo', 'url')),
  hash text,
  url text,
  CHECK ((origem = 'arquivo' AND hash IS NOT NULL AND url IS NULL)
      OR (origem = 'url' AND url IS NOT NULL AND hash IS NULL)),
  nome text NOT NULL,
  tipo text NOT NULL CHECK (tipo IN ('png', 'jpg', 'webp', 'avif', 'mvt')),
  min_zoom smallint NOT NULL,
  max_zoom smallint NOT NULL,
  oeste double precision NOT NULL,
  sul double precision NOT NULL,
  leste double precision NOT NULL,
  norte double precision NOT NULL,
  tamanho bigint NOT NULL,
  blocos bigint NOT NULL,
  versao text NOT NULL,
  atribuicao text,
  camadas text[] NOT NULL DEFAULT '{}',
  enviado_por uuid REFERENCES usuarios (id) ON DELETE SET NULL,
  enviado_em timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mapas_base_hash ON mapas_base (hash) WHERE hash IS NOT NULL;

-- The tile route keeps who may read a project's package for a few seconds (auth/callers.ts): a new, replaced or
-- removed package is news to every process, as a project's zones are.
CREATE TRIGGER acesso_mapas_base AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON mapas_base
  FOR EACH STATEMENT EXECUTE FUNCTION novus_acesso_mudou();
