-- What exports read, stored on the record (DESIGN.md 'Performance by design'), so that an export is one walk of
-- the export index with no per-row reprojection, join or parse.

-- UTM easting/northing of a collected record in SIRGAS 2000 / UTM {fuso}S of its project (EPSG 31960 + fuso), to
-- the centimetre, as the CSV writes them. Kept by triggers: when a record is collected or moved, and for all of a
-- project's collected records when its fuso changes. Empty without a fuso (its exports say so rather than guess)
-- and on points not collected yet (no export reads them; a preloaded file of 50,000 points pays nothing).
ALTER TABLE registros ADD COLUMN utm_e numeric(12, 2), ADD COLUMN utm_n numeric(12, 2);

CREATE FUNCTION novus_utm_registro() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  projeto_fuso smallint;
  utm geometry;
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.coletado AND NEW.geom IS NOT DISTINCT FROM OLD.geom AND NEW.projeto = OLD.projeto THEN
    RETURN NEW;
  END IF;
  SELECT fuso INTO projeto_fuso FROM projetos WHERE id = NEW.projeto;
  IF projeto_fuso IS NULL OR NEW.geom IS NULL THEN
    NEW.utm_e := NULL;
    NEW.utm_n := NULL;
  ELSE
    utm := ST_Transform(NEW.geom, 31960 + projeto_fuso);
    NEW.utm_e := round(ST_X(utm)::numeric, 2);
    NEW.utm_n := round(ST_Y(utm)::numeric, 2);
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER registros_utm BEFORE INSERT OR UPDATE OF geom, projeto, coletado ON registros
  FOR EACH ROW WHEN (NEW.coletado) EXECUTE FUNCTION novus_utm_registro();

CREATE FUNCTION novus_utm_projeto() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE registros SET
    utm_e = CASE WHEN NEW.fuso IS NULL THEN NULL ELSE round(ST_X(ST_Transform(geom, 31960 + NEW.fuso))::numeric, 2) END,
    utm_n = CASE WHEN NEW.fuso IS NULL THEN NULL ELSE round(ST_Y(ST_Transform(geom, 31960 + NEW.fuso))::numeric, 2) END
  WHERE projeto = NEW.id AND coletado AND geom IS NOT NULL;
  RETURN NULL;
END
$$;

CREATE TRIGGER projetos_utm AFTER UPDATE OF fuso ON projetos
  FOR EACH ROW WHEN (OLD.fuso IS DISTINCT FROM NEW.fuso) EXECUTE FUNCTION novus_utm_projeto();

UPDATE registros r SET
  utm_e = round(ST_X(ST_Transform(r.geom, 31960 + p.fuso))::numeric, 2),
  utm_n = round(ST_Y(ST_Transform(r.geom, 31960 + p.fuso))::numeric, 2)
FROM projetos p
WHERE p.id = r.projeto AND p.fuso IS NOT NULL AND r.coletado AND r.geom IS NOT NULL;

-- The slots of a record's photos, kept by a trigger on fotos: the CSV's photo count and the KML's photo links read
-- the record's row, so an export walks the export index in order with no join to sort after.
ALTER TABLE registros ADD COLUMN fotos_slots smallint[] NOT NULL DEFAULT '{}';

CREATE FUNCTION novus_fotos_slots() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.registro ELSE NEW.registro END;
BEGIN
  UPDATE registros SET fotos_slots = COALESCE((SELECT array_agg(slot ORDER BY slot) FROM fotos WHERE registro = changed), '{}')
  WHERE id = changed;
  RETURN NULL;
END
$$;

CREATE TRIGGER fotos_slots AFTER INSERT OR DELETE OR UPDATE OF registro, slot ON fotos
  FOR EACH ROW EXECUTE FUNCTION novus_fotos_slots();

UPDATE registros r SET fotos_slots = f.slots
FROM (SELECT registro, array_agg(slot ORDER BY slot) AS slots FROM fotos GROUP BY registro) f
WHERE f.registro = r.id;

-- Whether any of the record's typed values needs care on the way out, read from dados' JSON text in one pass:
-- one that may start like a spreadsheet formula (=, +, -, @, tab, CR, or a negative number: the CSV neutralises
-- it), one that holds &, <, > or a character JSON escapes (line breaks, control characters: the KML escapes
-- it). A false alarm only sends a record down the careful path; the export checks each field only on these.
ALTER TABLE registros
  ADD COLUMN texto_formula boolean GENERATED ALWAYS AS (dados::text ~ '"[=+@-]|"\\[tr]|: -') STORED,
  ADD COLUMN texto_xml boolean GENERATED ALWAYS AS (dados::text ~ '[&<>]|\\') STORED;

-- The formula check by the first character's code (=, +, -, @, tab, CR): no substring made per value.
CREATE OR REPLACE FUNCTION novus_csv_safe(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT CASE WHEN ascii(value) IN (61, 43, 45, 64, 9, 13) THEN '''' || value ELSE value END $$;

-- Text as XML element content (KML placemarks are written by the export query): &, < and > escaped, line breaks
-- as character references (a placemark is one line of COPY's output), and the control characters XML 1.0 forbids
-- dropped, with U+0001 and U+0002, which the KML's COPY uses as its delimiter and quote.
CREATE FUNCTION novus_xml(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT replace(replace(replace(replace(replace(
    translate(value, E'\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0c\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f', ''),
    '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), E'\n', '&#10;'), E'\r', '&#13;') $$;
