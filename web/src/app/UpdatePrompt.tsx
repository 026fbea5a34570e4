// Registers the service worker and offers a new version when one is waiting. The user decides
// when to reload, so a form in progress is never thrown away.
import { lazy, Suspense, useSyncExternalStore } from 'react';
import { useRegisterSW } from 'virtual:pwa-register/react';
import { useShell } from '../shared/services';

const UpdateSnackbar = lazy(() => import('./UpdateSnackbar').then((m) => ({ default: m.UpdateSnackbar })));

const HOURLY = 60 * 60 * 1000;

export function UpdatePrompt() {
  const { work } = useShell();
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

  if (!needRefresh) return null;
  return (
    <Suspense fallback={null}>
      <UpdateSnackbar
        open={!busy}
        onClose={() => setNeedRefresh(false)}
        onUpdate={() => void updateServiceWorker(true)}
      />
    </Suspense>
  );
}
