-- The photo stamp (issue 26): on by default per project; the project form turns it off. The SHA-256 of the
-- camera's original beside each photo the device compressed and stamped (null: a photo sent as taken, or by an
-- older app).
ALTER TABLE projetos ADD COLUMN carimbo_fotos boolean NOT NULL DEFAULT true;
ALTER TABLE fotos ADD COLUMN sha256_original text CHECK (sha256_original ~ '^[0-9a-f]{64}$');
