// A flag as a chip: its label and measure, marked by a warning icon (the text stays dark on grey: contrast).
import { Chip } from '@mui/material';
import WarningAmber from '@mui/icons-material/WarningAmber';
import type { Flag } from '@novus/domain/revisao';
import { flagTexto } from './revisao-view';

export function FlagChip({ flag }: { flag: Flag }) {
  return (
    <Chip
      size="small"
      icon={<WarningAmber color="warning" aria-hidden="true" />}
      label={flagTexto(flag)}
      sx={{ maxWidth: '100%', height: 'auto', '& .MuiChip-label': { whiteSpace: 'normal', py: 0.25 } }}
    />
  );
}
