-- Photos of records: bytes live in the BlobStore under their content hash; rows say which record and slot.
CREATE TABLE fotos (
  registro uuid NOT NULL REFERENCES registros (id) ON DELETE CASCADE,
  slot smallint NOT NULL CHECK (slot >= 0),
  hash text NOT NULL,
  size integer NOT NULL,
  media_type text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (registro, slot)
);
CREATE INDEX registros_tecnico ON registros (tecnico);
