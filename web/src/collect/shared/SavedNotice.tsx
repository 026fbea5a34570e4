// The short confirmation after a record is saved on the device.
//
// Always on the page, hidden while closed: showing it changes an attribute and adds its text, nothing else. A
// Snackbar mounted at the first save added its styles to the page then, which made the browser restyle the whole
// page (4 ms), and its entrance forced a layout (6 ms), between the save's commit and the frame that shows it
// (issue 41: Gravar to the confirmation ≤ 50 ms).
import { Alert, Box } from '@mui/material';
import { useEffect, useEffectEvent } from 'react';

/** How long the confirmation stays, as a Snackbar's autoHideDuration did. */
const SHOWN_MS = 4000;

export function SavedNotice({ open, text, onClose }: { open: boolean; text: string; onClose: () => void }) {
  // The page's latest onClose, so drawing the page again does not start the time over.
  const close = useEffectEvent(onClose);
  useEffect(() => {
    if (!open) return;
    const timer = setTimeout(() => close(), SHOWN_MS);
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && close();
    document.addEventListener('keydown', onKey);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
  return (
    <Box
      sx={{
        position: 'fixed',
        zIndex: 'snackbar',
        left: 8,
        right: 8,
        bottom: 8,
        display: 'flex',
        justifyContent: 'center',
        pointerEvents: 'none',
      }}
    >
      <Alert
        hidden={!open}
        severity="success"
        variant="filled"
        onClose={onClose}
        sx={{ pointerEvents: 'auto', '&[hidden]': { display: 'none' } }}
      >
        {open ? text : null}
      </Alert>
    </Box>
  );
}
