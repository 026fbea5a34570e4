// 'Projeto': the projects the user may see, chosen by name.
import { MenuItem, TextField } from '@mui/material';
import type { ProjetoSummary } from '@novus/domain/api/projetos';
import type { Load } from './use-api-load';

interface Props {
  id: string;
  projetos: Load<ProjetoSummary[]>;
  value: string;
  onChange: (projetoId: string) => void;
}

export function ProjetoSelect({ id, projetos, value, onChange }: Props) {
  const options = projetos.status === 'done' ? projetos.value : [];
  return (
    <TextField
      select
      id={id}
      label="Projeto"
      value={options.some((projeto) => projeto._id === value) ? value : ''}
      onChange={(event) => onChange(event.target.value)}
      sx={{ minWidth: 280 }}
    >
      {options.map((projeto) => (
        <MenuItem key={projeto._id} value={projeto._id}>
          {projeto.nome}
        </MenuItem>
      ))}
    </TextField>
  );
}
