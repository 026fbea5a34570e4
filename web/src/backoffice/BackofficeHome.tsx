import { Typography } from '@mui/material';
import { visuallyHidden } from '@mui/utils';

/** The back office's home is empty by design (SPEC.md section 2); the heading keeps the page navigable. */
export function BackofficeHome() {
  return (
    <Typography component="h1" variant="h5" sx={visuallyHidden}>
      Início
    </Typography>
  );
}
