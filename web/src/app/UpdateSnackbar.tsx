// 'Nova versão disponível — Atualizar': a chunk of its own (MUI's Snackbar and its transition), fetched as soon
// as a new version is found, even while the prompt waits hidden for the technician's work to end.
import { Alert, Button, Snackbar } from '@mui/material';

export function UpdateSnackbar({
  open,
  updating,
  onUpdate,
}: {
  open: boolean;
  /** 'Atualizar' was pressed: the page reloads as soon as the new version controls it. */
  updating: boolean;
  onUpdate: () => void;
}) {
  return (
    <Snackbar open={open} anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}>
      <Alert
        severity="info"
        variant="filled"
        // White on the default info blue is 4.0:1; the dark shade reads at 7.6:1 (WCAG AA needs 4.5:1).
        sx={{ bgcolor: 'info.dark' }}
        action={
          <Button color="inherit" size="small" disabled={updating} onClick={onUpdate}>
            Atualizar
          </Button>
        }
      >
        {/* The trailing space: the alert reads 'Nova versão disponível — Atualizar' with its button. */}
        {'Nova versão disponível — '}
      </Alert>
    </Snackbar>
  );
}
