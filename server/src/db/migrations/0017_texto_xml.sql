-- The KML's careful path only for what XML needs (issue 22). texto_xml flagged every record whose JSON text held a
-- backslash, and JSON writes a quote as \" and a backslash as \\: an observation with "quotes" sent its record's
-- every field through novus_xml (a translate and five replaces each), a third of the KML's time where one record in
-- ten quotes something. Now &, <, > and the escapes of what novus_xml changes: \n, \r, \b, \f and \u (PostgreSQL
-- writes the other control characters as \u00XX, and nothing else as \u). A false alarm (a backslash typed before
-- an n) only sends the record down the careful path, as before.
ALTER TABLE registros DROP COLUMN texto_xml;
ALTER TABLE registros ADD COLUMN texto_xml boolean GENERATED ALWAYS AS (dados::text ~ '[&<>]|\\[nrbfu]') STORED;
