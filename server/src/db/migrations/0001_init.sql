-- Foundation: clients, users, projects with zones (PostGIS from the start), client logs.
CREATE EXTENSION IF NOT EXISTS postgis;

CREATE TABLE clientes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  nome text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX clientes_nome_unique ON clientes (lower(nome));

CREATE TABLE usuarios (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  login text NOT NULL,
  first_name text NOT NULL DEFAULT '',
  last_name text NOT NULL DEFAULT '',
  password_hash text NOT NULL,
  roles text[] NOT NULL DEFAULT '{}',
  cliente uuid REFERENCES clientes (id) ON DELETE RESTRICT,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX usuarios_login_unique ON usuarios (lower(login));

CREATE TABLE projetos (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  nome text NOT NULL,
  cliente uuid NOT NULL REFERENCES clientes (id) ON DELETE RESTRICT,
  fluxos text[] NOT NULL DEFAULT '{}',
  fuso smallint CHECK (fuso BETWEEN 18 AND 25),
  disponivel_interpres boolean NOT NULL DEFAULT false,
  limite_download integer,
  imagens_mapa jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX projetos_nome_unique ON projetos (lower(nome));
CREATE INDEX projetos_cliente ON projetos (cliente);

CREATE TABLE zonas (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  projeto uuid NOT NULL REFERENCES projetos (id) ON DELETE CASCADE,
  label text NOT NULL,
  poligono2 jsonb NOT NULL,
  geom geometry(Polygon, 4326) NOT NULL
);
CREATE INDEX zonas_projeto ON zonas (projeto);
CREATE INDEX zonas_geom ON zonas USING gist (geom);

CREATE TABLE usuario_zonas (
  usuario uuid NOT NULL REFERENCES usuarios (id) ON DELETE CASCADE,
  zona uuid NOT NULL REFERENCES zonas (id) ON DELETE CASCADE,
  PRIMARY KEY (usuario, zona)
);

CREATE TABLE logs (
  id bigserial PRIMARY KEY,
  severity text NOT NULL,
  message text NOT NULL,
  extras jsonb,
  usuario uuid,
  created_at timestamptz NOT NULL DEFAULT now()
);
