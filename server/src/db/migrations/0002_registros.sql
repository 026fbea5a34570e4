-- Every collected or preloaded record of every flow (DESIGN.md 'Data model'); the id is made on the device.
CREATE TABLE registros (
  id uuid PRIMARY KEY,
  fluxo text NOT NULL,
  projeto uuid NOT NULL REFERENCES projetos (id) ON DELETE CASCADE,
  zona uuid REFERENCES zonas (id) ON DELETE SET NULL,
  tecnico uuid REFERENCES usuarios (id) ON DELETE SET NULL,
  lat double precision,
  lng double precision,
  geom geometry(Point, 4326),
  data_hora timestamptz,
  sincronizado_em timestamptz,
  coletado boolean NOT NULL DEFAULT false,
  adicionado_app boolean NOT NULL DEFAULT false,
  carregado_backoffice boolean NOT NULL DEFAULT false,
  dados jsonb NOT NULL DEFAULT '{}',
  -- position in the file a preloaded point came from, to list points as the file had them
  ordem integer,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX registros_projeto_fluxo_data ON registros (projeto, fluxo, data_hora);
CREATE INDEX registros_zona_fluxo ON registros (zona, fluxo);
CREATE INDEX registros_geom ON registros USING gist (geom);
