// Registers the service worker and offers a new version when one is found. Nothing reloads a tab while the
// technician is in the middle of something (update-policy.ts): not this tab's own 'Atualizar', and not another
// tab's (or the installed app's), whose new worker takes this one over too.
import { lazy, Suspense, useEffect, useReducer, useRef, useSyncExternalStore } from 'react';
import { useRegisterSW } from 'virtual:pwa-register/react';
import { useShell } from '../shared/services';
import { NO_UPDATE, nextUpdateState, promptOpen, shouldReload } from './update-policy';

const UpdateSnackbar = lazy(() => import('./UpdateSnackbar').then((m) => ({ default: m.UpdateSnackbar })));

const HOURLY = 60 * 60 * 1000;
/** How often, and for how long, a new worker still waiting after 'Atualizar' is asked again to take over. */
const SKIP_WAITING_RETRY_MS = 2_000;
const SKIP_WAITING_TRIES = 30;

export function UpdatePrompt() {
  const { work } = useShell();
  // A wizard open, a sync, a compression: reloading then would throw the technician's work away.
  const busy = useSyncExternalStore(work.subscribe, work.isBusy);
  const [state, dispatch] = useReducer(nextUpdateState, NO_UPDATE);
  const registration = useRef<ServiceWorkerRegistration | undefined>(undefined);
  const { updateServiceWorker } = useRegisterSW({
    onRegisteredSW(_url, registered) {
      if (registered === undefined) return;
      registration.current = registered;
      // Field tablets stay open for days: look for a new version now and then, when online.
      setInterval(() => {
        if (navigator.onLine) void registered.update().catch(() => undefined);
      }, HOURLY);
    },
    onNeedRefresh: () => dispatch({ type: 'found' }),
    // The new worker took control of this tab, after this tab's 'Atualizar' or another's. Given, so the plugin's
    // own handler (an immediate window.location.reload()) never runs.
    onNeedReload: () => dispatch({ type: 'activated', busy: work.isBusy() }),
  });

  const reload = shouldReload(state, busy);
  useEffect(() => {
    if (reload) window.location.reload();
  }, [reload]);

  const update = () => {
    const waiting = registration.current?.waiting ?? null;
    dispatch({ type: 'pressed', waiting: waiting !== null });
    if (waiting === null) return; // already active (another tab updated): the reload alone brings it in
    // A page the old worker never controlled (the first visit, kept open) hears no controllerchange: its worker's
    // activation is the signal there.
    waiting.addEventListener('statechange', () => {
      if (waiting.state === 'activated') dispatch({ type: 'activated', busy: work.isBusy() });
    });
    void updateServiceWorker(true);
    // Chromium may leave the new worker parked in 'waiting' after the first ask ('Atualizar' then did nothing: seen
    // in CI under Playwright, where the page's message was sometimes not acted on at all while skipWaiting() run in
    // the worker itself activated it). Ask again every 2 s while it waits; after a minute, reload anyway: the page
    // comes back with the prompt rather than a dead button.
    let tries = 0;
    const retry = window.setInterval(() => {
      if (waiting.state !== 'installed') {
        window.clearInterval(retry);
        return;
      }
      tries += 1;
      if (tries > SKIP_WAITING_TRIES) {
        window.clearInterval(retry);
        if (!work.isBusy()) window.location.reload();
        return;
      }
      waiting.postMessage({ type: 'SKIP_WAITING' });
    }, SKIP_WAITING_RETRY_MS);
  };

  // Mounted (hidden) from the moment a version is found, so its chunk comes from the old worker's cache while
  // that is still the one serving this tab.
  if (!state.found) return null;
  return (
    <Suspense fallback={null}>
      <UpdateSnackbar open={promptOpen(state, busy)} updating={state.pressed} onUpdate={update} />
    </Suspense>
  );
}
