-- A point (ip, lpt, bdgd, fiscalizacao, lpt2) may be collected by more than one device (DESIGN.md 'Sync protocol'):
-- `coleta` names the collection that is the record's current value (the id the device made when it saved it),
-- and a competing collection of a point is kept as its own row pointing at the point through `conflito_de`.
ALTER TABLE registros ADD COLUMN coleta uuid;
ALTER TABLE registros ADD COLUMN conflito_de uuid REFERENCES registros (id) ON DELETE CASCADE;
-- Records collected before this migration were sent without a collection id, which then defaults to their id.
UPDATE registros SET coleta = id WHERE coletado;
CREATE INDEX registros_conflito_de ON registros (conflito_de) WHERE conflito_de IS NOT NULL;
-- A request that fails removes the photo files it stored only when no row refers to them.
CREATE INDEX fotos_hash ON fotos (hash);
