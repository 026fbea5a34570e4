// The short confirmation after a record is saved on the device.
import { Alert, Snackbar } from '@mui/material';

export function SavedNotice({ open, text, onClose }: { open: boolean; text: string; onClose: () => void }) {
  return (
    <Snackbar open={open} autoHideDuration={4000} onClose={onClose}>
      <Alert severity="success" variant="filled" onClose={onClose}>
        {text}
      </Alert>
    </Snackbar>
  );
}
