// Compactar Imagens and Sincronizar (SPEC.md sections 4 and 5): one at a time, status as the engine reports it,
// an expired session sends the technician to log in again with every record still on the device. The home shows
// before the device's code arrives: the banners' counts come from home-device.ts, the work itself (field-work.ts)
// loads on the first tap.
import { startTransition, useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import type { Device } from '../offline/device';
import { useDevice, useShell } from '../shared/services';
import type { Pending } from './home-device';

export const FIELD_TEXTS = {
  refuse: 'Nao e possivel sincronizar. Favor compactar imagens.',
  confirm: 'Esse procedimento leva alguns minutos para concluir. Deseja continuar?',
  compressing: 'Compactando imagens...',
} as const;

/**
 * The banners as the home last showed them: drawn at once on the next visit, then corrected, so the counts'
 * late arrival never moves the buttons under a finger.
 */
const PENDING_KEY = 'novus.pendentesNaTela';
/** The 'Correções' banner's count as last shown, for the same reason. */
const CORRECOES_KEY = 'novus.correcoesNaTela';

function lastCorrecoes(): number {
  const value = Number(window.localStorage.getItem(CORRECOES_KEY) ?? '0');
  return Number.isInteger(value) && value > 0 ? value : 0;
}

function lastPending(): Pending[] {
  try {
    const value: unknown = JSON.parse(window.localStorage.getItem(PENDING_KEY) ?? '[]');
    return Array.isArray(value) ? (value as Pending[]) : [];
  } catch {
    return [];
  }
}

const loadWork = () => import('./field-work');

export function useFieldWork() {
  const { session, work, log } = useShell();
  const device = useDevice();
  const navigate = useNavigate();
  const [busy, setBusy] = useState<'compress' | 'sync' | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState(false);
  const [pending, setPending] = useState<Pending[]>(lastPending);
  const [correcoes, setCorrecoes] = useState(lastCorrecoes);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let active = true;
    void (async () => {
      const [{ readPendingBanners, readCorrecoesAFazer }, services] = await Promise.all([
        import('./home-device'),
        device(),
      ]);
      const list = await readPendingBanners(services);
      const aFazer = await readCorrecoesAFazer(services);
      if (!active) return;
      startTransition(() => {
        setPending(list);
        setCorrecoes(aFazer);
      });
      window.localStorage.setItem(PENDING_KEY, JSON.stringify(list));
      window.localStorage.setItem(CORRECOES_KEY, String(aFazer));
    })().catch(() => undefined);
    return () => {
      active = false;
    };
  }, [device, version]);

  const compress = useCallback(async () => {
    const end = work.begin('compress');
    setBusy('compress');
    setError(false);
    setStatus(FIELD_TEXTS.compressing);
    try {
      const [fieldWork, services] = await Promise.all([loadWork(), device()]);
      const outcome = await fieldWork.compress(services, setStatus);
      setError(outcome.error);
      if (outcome.status !== null) setStatus(outcome.status);
    } catch (cause) {
      // the app's own code could not load (offline before the service worker kept it)
      setError(true);
      setStatus(messageOf(cause));
    } finally {
      setBusy(null);
      end();
      setVersion((v) => v + 1);
    }
  }, [device, work]);

  const sync = useCallback(async () => {
    let fieldWork: Awaited<ReturnType<typeof loadWork>>;
    let services: Device;
    try {
      [fieldWork, services] = await Promise.all([loadWork(), device()]);
    } catch (cause) {
      setError(true);
      setStatus(messageOf(cause));
      return;
    }
    if (await fieldWork.hasUncompressed(services)) {
      window.alert(FIELD_TEXTS.refuse);
      return;
    }
    if (!window.confirm(FIELD_TEXTS.confirm)) return;
    const end = work.begin('sync');
    setBusy('sync');
    setError(false);
    // what failed on the device while offline goes with this sync (SPEC.md 8)
    void log.flush();
    try {
      const outcome = await fieldWork.sync(services, session.get()?.nome ?? '', setStatus);
      if (outcome.expired !== undefined) {
        window.alert(outcome.expired);
        // The device's claims are stale: forget them so the login screen shows; IndexedDB keeps every record.
        session.clear();
        navigate('/login', { replace: true });
        return;
      }
      setError(outcome.error);
      if (outcome.status !== null) setStatus(outcome.status);
    } finally {
      setBusy(null);
      end();
      setVersion((v) => v + 1);
    }
  }, [device, session, work, log, navigate]);

  return { busy, status, error, pending, correcoes, version, compress, sync };
}

const messageOf = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause));
