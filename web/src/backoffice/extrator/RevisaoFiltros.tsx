// The review's choices of the Extrator and the Relatórios (issue 24): include the review state and flags as columns
// of every file, and keep only the records of a review state or flag; the server puts the choice in every link.
import { Checkbox, FormControlLabel, MenuItem, Stack, TextField } from '@mui/material';
import { FLAG_FILTRO_LABELS, FLAG_FILTROS, type RevisaoExport } from '@novus/domain/export/revisao';
import { ESTADO_LABELS, ESTADOS_REVISAO } from '@novus/domain/revisao';

/** The select's value for no filter: MUI shows no label for an empty value. */
const TODOS = 'todos';

interface Props {
  /** Prefix of the selects' ids, unique on the page. */
  id: string;
  value: RevisaoExport;
  onChange: (value: RevisaoExport) => void;
}

export function RevisaoFiltros({ id, value, onChange }: Props) {
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' } }}>
      <FormControlLabel
        label="Incluir revisão e sinalizações"
        control={
          <Checkbox
            checked={value.revisao === '1'}
            onChange={(event) => onChange({ ...value, revisao: event.target.checked ? '1' : undefined })}
          />
        }
      />
      <TextField
        select
        id={`${id}-estado`}
        label="Estado da revisão"
        value={value.estado ?? TODOS}
        onChange={(event) => {
          const estado = ESTADOS_REVISAO.find((candidate) => candidate === event.target.value);
          onChange({ ...value, estado });
        }}
        sx={{ minWidth: 200 }}
      >
        <MenuItem value={TODOS}>Todos</MenuItem>
        {ESTADOS_REVISAO.map((estado) => (
          <MenuItem key={estado} value={estado}>
            {ESTADO_LABELS[estado]}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        id={`${id}-flag`}
        label="Sinalização"
        value={value.flag ?? TODOS}
        onChange={(event) => {
          const flag = FLAG_FILTROS.find((candidate) => candidate === event.target.value);
          onChange({ ...value, flag });
        }}
        sx={{ minWidth: 280 }}
      >
        <MenuItem value={TODOS}>Todas</MenuItem>
        {FLAG_FILTROS.map((flag) => (
          <MenuItem key={flag} value={flag}>
            {FLAG_FILTRO_LABELS[flag]}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
}
