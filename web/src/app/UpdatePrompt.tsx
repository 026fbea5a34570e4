// Registers the service worker and offers a new version when one is waiting. The user decides
// when to reload, so a form in progress is never thrown away.
import { useState, useSyncExternalStore } from 'react';
import { useRegisterSW } from 'virtual:pwa-register/react';
import { Alert, Button, Snackbar } from '@mui/material';
import { useServices } from './services';

const HOURLY = 60 * 60 * 1000;

export function UpdatePrompt() {
  const [updating, setUpdating] = useState(false);
  const { work } = useServices();
  // Never offered mid-sync or mid-wizard: reloading then would throw the technician's work away.
  const busy = useSyncExternalStore(work.subscribe, work.isBusy);
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisteredSW(_url, registration) {
      if (registration === undefined) return;
      // Field tablets stay open for days: look for a new version now and then, when online.
      setInterval(() => {
        if (navigator.onLine) void registration.update().catch(() => undefined);
      }, HOURLY);
    },
  });

  return (
    <Snackbar open={needRefresh && !busy} anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}>
      <Alert
        severity="info"
        variant="filled"
        // White on the default info blue is 4.0:1; the dark shade reads at 7.6:1 (WCAG AA needs 4.5:1).
        sx={{ bgcolor: 'info.dark' }}
        onClose={() => setNeedRefresh(false)}
        action={
          <Button
            color="inherit"
            size="small"
            disabled={updating}
            onClick={() => {
              setUpdating(true);
              void updateServiceWorker(true);
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
