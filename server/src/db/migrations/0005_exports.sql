-- Exports (DESIGN.md 'Reading a lot'): one projected query per file, read in the order of collection.
-- A value a spreadsheet would run as a formula (OWASP 'CSV injection') gets a leading quote; inlined by the planner.
CREATE FUNCTION novus_csv_safe(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT CASE WHEN left(value, 1) IN ('=', '+', '-', '@', E'\t', E'\r') THEN '''' || value ELSE value END $$;
-- Keyset order of an export (project, flow, time, id), and the units fed by a pole (a pole's QTD_DROP).
CREATE INDEX registros_export ON registros (projeto, fluxo, data_hora, id) WHERE coletado AND conflito_de IS NULL;
CREATE INDEX registros_drop ON registros (projeto, (dados->>'drop')) WHERE fluxo = 'hc';
