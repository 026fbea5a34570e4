// A select of a project's days with records, shown DD/MM/YYYY ('Data', 'Data inicial', 'Data final').
import { MenuItem, TextField } from '@mui/material';
import { formatDia } from './datas';

interface Props {
  id: string;
  label: string;
  /** YYYY-MM-DD, ascending. */
  datas: readonly string[];
  value: string;
  onChange: (data: string) => void;
  /** Days that cannot be chosen (a start after the end). */
  isDisabled?: (data: string) => boolean;
}

export function DataSelect({ id, label, datas, value, onChange, isDisabled }: Props) {
  return (
    <TextField
      select
      id={id}
      label={label}
      value={datas.includes(value) ? value : ''}
      onChange={(event) => onChange(event.target.value)}
      sx={{ minWidth: 180 }}
    >
      {datas.map((data) => (
        <MenuItem key={data} value={data} disabled={isDisabled?.(data) ?? false}>
          {formatDia(data)}
        </MenuItem>
      ))}
    </TextField>
  );
}
