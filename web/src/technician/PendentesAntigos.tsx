// 'Há registros não sincronizados há mais de 24 horas' (issue 25), under the home's per-flow banners. It is drawn
// from the banners as the home last cached them, so on a visit it is there with the first paint and moves nothing;
// the clock is read again every minute and when the phone is woken, for a home left open across the 24 hours.
import { useEffect, useState } from 'react';
import { Alert } from '@mui/material';
import { hasOldPending, PENDING_OLD_TEXT } from '../offline/pending-age';

const MINUTE = 60_000;

/** The time, read again every minute while `ticking`, and whenever the page comes back into view. */
function useNow(ticking: boolean): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    if (!ticking) return;
    const read = () => setNow(Date.now());
    // a timer does not run while the phone sleeps: waking it reads the clock at once
    const onVisible = () => {
      if (document.visibilityState === 'visible') read();
    };
    read();
    const timer = window.setInterval(read, MINUTE);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [ticking]);
  return now;
}

/** `oldest` is absent from banners cached by an older version: unknown, as none. */
export function PendentesAntigos({ pending }: { pending: readonly { oldest?: number | null }[] }) {
  const oldests = pending.map((flow) => flow.oldest);
  const now = useNow(oldests.some((oldest) => typeof oldest === 'number'));
  if (!hasOldPending(oldests, now)) return null;
  return (
    <Alert severity="warning" data-testid="pendentes-antigos">
      {PENDING_OLD_TEXT}
    </Alert>
  );
}
