// 'Nova versão disponível.': a chunk of its own (MUI's Snackbar and its transition), fetched only when a new
// version is waiting.
import { useState } from 'react';
import { Alert, Button, Snackbar } from '@mui/material';

export function UpdateSnackbar({
  open,
  onClose,
  onUpdate,
}: {
  open: boolean;
  onClose: () => void;
  onUpdate: () => void;
}) {
  const [updating, setUpdating] = useState(false);
  return (
    <Snackbar open={open} anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}>
      <Alert
        severity="info"
        variant="filled"
        // White on the default info blue is 4.0:1; the dark shade reads at 7.6:1 (WCAG AA needs 4.5:1).
        sx={{ bgcolor: 'info.dark' }}
        onClose={onClose}
        action={
          <Button
            color="inherit"
            size="small"
            disabled={updating}
            onClick={() => {
              setUpdating(true);
              onUpdate();
            }}
          >
            Atualizar
          </Button>
        }
      >
        Nova versão disponível.
      </Alert>
    </Snackbar>
  );
}
