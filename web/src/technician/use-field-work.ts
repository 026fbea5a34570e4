// Compactar Imagens and Sincronizar (SPEC.md sections 4 and 5): one at a time, status as the engine reports it,
// an expired session sends the technician to log in again with every record still on the device. The home never
// waits for the device's code: the banners' counts come from home-device.ts, read with IndexedDB itself; the work
// (field-work.ts, with Dexie and the sync engine) loads on the first tap.
import { startTransition, useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router';
import type { Device } from '../offline/device';
import type { FieldWorkEnd } from '../offline/tabs';
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
  const { session, work, log, tabs, reader } = useShell();
  const device = useDevice();
  const navigate = useNavigate();
  const [busy, setBusy] = useState<'compress' | 'sync' | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState(false);
  const [pending, setPending] = useState<Pending[]>(lastPending);
  const [correcoes, setCorrecoes] = useState(lastCorrecoes);
  const [version, setVersion] = useState(0);
  // Bumped by every write to the device's database, here or in another tab: the banners are read again.
  const [changes, setChanges] = useState(0);
  // Another tab's sync or compression (issue 25): this home shows it and waits for it.
  const remote = useSyncExternalStore(tabs.subscribe, tabs.getRemote);

  useEffect(() => reader.onChange(() => setChanges((count) => count + 1)), [reader]);

  useEffect(() => {
    let active = true;
    void (async () => {
      const { readBanners } = await import('./home-device');
      const banners = await readBanners(reader);
      if (!active) return;
      startTransition(() => {
        setPending(banners.pending);
        setCorrecoes(banners.correcoes);
      });
      window.localStorage.setItem(PENDING_KEY, JSON.stringify(banners.pending));
      window.localStorage.setItem(CORRECOES_KEY, String(banners.correcoes));
    })().catch(() => undefined);
    return () => {
      active = false;
    };
  }, [reader, version, changes]);

  // A sync or compression of another tab ended: its last word shows here too, and the figures are read again.
  const wasRemote = useRef(remote !== null);
  useEffect(() => {
    const ended = wasRemote.current && remote === null;
    wasRemote.current = remote !== null;
    if (!ended) return;
    const end = tabs.getLastEnd();
    if (end !== null) {
      setError(end.error);
      if (end.status !== null) setStatus(end.status);
    }
    setVersion((v) => v + 1);
  }, [remote, tabs]);

  /** Runs the work as this device's only sync or compression; when another tab is at it, follows that one. */
  const runExclusive = useCallback(
    async (kind: 'compress' | 'sync', run: (onStatus: (text: string) => void) => Promise<FieldWorkEnd>) => {
      const end = work.begin(kind);
      setBusy(kind);
      setError(false);
      try {
        const outcome = await tabs.run(kind, run, setStatus);
        setError(outcome.error);
        if (outcome.status !== null) setStatus(outcome.status);
      } finally {
        setBusy(null);
        end();
        setVersion((v) => v + 1);
      }
    },
    [tabs, work],
  );

  const compress = useCallback(async () => {
    setStatus(FIELD_TEXTS.compressing);
    await runExclusive('compress', async (onStatus) => {
      onStatus(FIELD_TEXTS.compressing);
      try {
        const [fieldWork, services] = await Promise.all([loadWork(), device()]);
        return await fieldWork.compress(services, session.get()?.nome ?? '', onStatus);
      } catch (cause) {
        // the app's own code could not load (offline before the service worker kept it)
        return { status: messageOf(cause), error: true };
      }
    });
  }, [device, session, runExclusive]);

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
    // what failed on the device while offline goes with this sync (SPEC.md 8)
    void log.flush();
    let expired: string | undefined;
    await runExclusive('sync', async (onStatus) => {
      const outcome = await fieldWork.sync(services, session.get()?.nome ?? '', onStatus);
      expired = outcome.expired;
      return outcome;
    });
    if (expired !== undefined) {
      window.alert(expired);
      // The device's claims are stale: forget them so the login screen shows; IndexedDB keeps every record.
      session.clear();
      navigate('/login', { replace: true });
    }
  }, [device, session, log, navigate, runExclusive]);

  return {
    busy: busy ?? remote?.kind ?? null,
    status: busy === null && remote !== null ? remote.status : status,
    error,
    pending,
    correcoes,
    version,
    compress,
    sync,
  };
}

const messageOf = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause));
