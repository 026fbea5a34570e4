import { Typography } from '@mui/material';

const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  margin: '-1px',
  padding: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;

/** The back office's home is empty by design (SPEC.md section 2); the heading keeps the page navigable. */
export function BackofficeHome() {
  return (
    <Typography component="h1" variant="h5" sx={VISUALLY_HIDDEN}>
      Início
    </Typography>
  );
}
