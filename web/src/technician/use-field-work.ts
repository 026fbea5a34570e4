// Compactar Imagens and Sincronizar (SPEC.md sections 4 and 5): one at a time, status as the engine reports it,
// an expired session sends the technician to log in again with every record still on the device.
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { FLOWS } from '@novus/domain/flows/registry';
import { useServices } from '../app/services';
import { browserCompressor, COMPRESS_TEXTS, compressAll, progressText } from '../offline/compress';
import { READINESS_TEXTS, supportsOfflineApp, waitForAppShell } from '../offline/readiness';
import { SessionExpiredError, SYNC_TEXTS, SyncEngine } from '../offline/sync';

export const FIELD_TEXTS = {
  refuse: 'Nao e possivel sincronizar. Favor compactar imagens.',
  confirm: 'Esse procedimento leva alguns minutos para concluir. Deseja continuar?',
} as const;

export interface Pending {
  fluxo: string;
  label: string;
  count: number;
}

export function useFieldWork() {
  const { records, transport, localStore, session, work } = useServices();
  const navigate = useNavigate();
  const [busy, setBusy] = useState<'compress' | 'sync' | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState(false);
  const [pending, setPending] = useState<Pending[]>([]);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let active = true;
    void (async () => {
      const projetos = await localStore.listProjetos();
      const fluxos = new Set(projetos.flatMap((projeto) => projeto.fluxos));
      const list: Pending[] = [];
      for (const flow of FLOWS) {
        if (!fluxos.has(flow.key)) continue;
        const count = (await records.pending(flow)).length;
        list.push({ fluxo: flow.key, label: flow.labels.banner, count });
      }
      if (active) setPending(list);
    })().catch(() => undefined);
    return () => {
      active = false;
    };
  }, [records, localStore, version]);

  const compress = useCallback(async () => {
    const end = work.begin('compress');
    setBusy('compress');
    setError(false);
    setStatus('Compactando imagens...');
    try {
      const compressor = await browserCompressor();
      await compressAll(records, FLOWS, compressor, (progress) => setStatus(progressText(progress)));
      setStatus(COMPRESS_TEXTS.done);
    } catch (cause) {
      setError(true);
      setStatus(`${COMPRESS_TEXTS.failed}: ${cause instanceof Error ? cause.message : String(cause)}`);
    } finally {
      setBusy(null);
      end();
      setVersion((v) => v + 1);
    }
  }, [records, work]);

  const sync = useCallback(async () => {
    if (await records.hasUncompressed(FLOWS)) {
      window.alert(FIELD_TEXTS.refuse);
      return;
    }
    if (!window.confirm(FIELD_TEXTS.confirm)) return;
    const end = work.begin('sync');
    setBusy('sync');
    setError(false);
    try {
      const engine = new SyncEngine({
        db: localStore.db,
        records,
        transport,
        flows: FLOWS,
        tecnico: session.get()?.nome ?? '',
        // 'Sincronizacao concluida' waits until the app itself opens offline (below).
        onStatus: (text) => setStatus(text === SYNC_TEXTS.done ? READINESS_TEXTS.waitingApp : text),
      });
      const result = await engine.run();
      if (result.ok) {
        const appReady = !supportsOfflineApp() || (await waitForAppShell());
        setStatus(appReady ? SYNC_TEXTS.done : READINESS_TEXTS.appNotSaved);
        setError(!appReady);
      } else {
        setError(true);
      }
    } catch (cause) {
      if (cause instanceof SessionExpiredError) {
        window.alert(cause.message);
        // The device's claims are stale: forget them so the login screen shows; IndexedDB keeps every record.
        session.clear();
        navigate('/login', { replace: true });
        return;
      }
      setError(true);
      setStatus(cause instanceof Error ? cause.message : String(cause));
    } finally {
      setBusy(null);
      end();
      setVersion((v) => v + 1);
    }
  }, [records, localStore, transport, session, work, navigate]);

  return { busy, status, error, pending, version, compress, sync };
}
