-- IP points are numbered per project as BDGD's are (SPEC.md 2 and 3: the IP's sequencial): the points stored before
-- the numbering get theirs here, after the project's largest: preloaded ones first, each import in file order (the
-- rows of one import share created_at), then those added in the app in the order they reached the server.
UPDATE registros r SET dados = r.dados || jsonb_build_object('sequencial', n.sequencial)
FROM (
  SELECT id, numbered,
    COALESCE(max(CASE WHEN numbered THEN (dados->>'sequencial')::numeric END) OVER (PARTITION BY projeto), 0)::int
    + row_number() OVER (PARTITION BY projeto, numbered
                         ORDER BY carregado_backoffice DESC, created_at, ordem, id) AS sequencial
  FROM (
    SELECT id, projeto, dados, carregado_backoffice, created_at, ordem,
      COALESCE(jsonb_typeof(dados->'sequencial') = 'number', false) AS numbered
    FROM registros
    WHERE fluxo = 'ip' AND conflito_de IS NULL
  ) ip
) n
WHERE r.id = n.id AND NOT n.numbered;
