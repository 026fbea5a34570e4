-- The records an administrador deleted in the back office, remembered (issue 39): the phones keep what they sent for
-- a retention window and ask at each sync what the server lacks (POST /api/registros/conferir), so a deletion must
-- be told apart from a loss (a restored backup), or the phones would bring the record back. Kept for good for now:
-- one small row per deletion, far longer than any retention window.
CREATE TABLE registros_excluidos (
  id uuid PRIMARY KEY,
  fluxo text NOT NULL,
  projeto uuid NOT NULL REFERENCES projetos (id) ON DELETE CASCADE,
  -- who sent it: the phone of that technician is told 'excluido', anyone else's 'alheio'
  tecnico uuid REFERENCES usuarios (id) ON DELETE SET NULL,
  excluido_em timestamptz NOT NULL DEFAULT now(),
  excluido_por uuid REFERENCES usuarios (id) ON DELETE SET NULL
);
