// What the home's Compactar Imagens and Sincronizar run: the sync engine and the compressor, loaded when the
// technician first taps one, so the home itself shows without them (issue 13).
import { FLOWS } from '@novus/domain/flows/registry';
import { linhasCarimbo } from '../offline/carimbo';
import {
  type CarimboDe,
  COMPRESS_TEXTS,
  compressAll,
  photoCompressor,
  progressText,
} from '../offline/compress';
import type { Device } from '../offline/device';
import { READINESS_TEXTS, supportsOfflineApp, waitForAppShell } from '../offline/readiness';
import { readStorageUsage } from '../offline/storage';
import { SessionExpiredError, SYNC_TEXTS, SyncEngine } from '../offline/sync';

export interface Outcome {
  /** The last word for the status line; null keeps what the engine said last. */
  status: string | null;
  error: boolean;
}

export async function compress(
  { records, localStore }: Device,
  tecnico: string,
  onStatus: (text: string) => void,
): Promise<Outcome> {
  const compressor = photoCompressor();
  try {
    const carimboDe = await carimbos(localStore, tecnico);
    await compressAll(
      records,
      FLOWS,
      compressor.compress,
      (progress) => onStatus(progressText(progress)),
      carimboDe,
    );
    return { status: COMPRESS_TEXTS.done, error: false };
  } catch (cause) {
    return { status: `${COMPRESS_TEXTS.failed}: ${messageOf(cause)}`, error: true };
  } finally {
    compressor.close();
  }
}

/** Each record's stamp (issue 26): on unless its project turned it off; the technician is the one signed in. */
async function carimbos(localStore: Device['localStore'], tecnico: string): Promise<CarimboDe> {
  const projetos = new Map((await localStore.listProjetos()).map((projeto) => [projeto.id, projeto]));
  return (flow, record) => {
    const projeto = projetos.get(record.projeto);
    if (projeto?.carimboFotos === false) return null;
    return linhasCarimbo({
      dataHora: record.dataHora,
      coordenadas: record.coordenadas,
      precisao: record.precisao,
      tecnico,
      projeto: projeto?.nome ?? '',
      fluxo: flow.labels.record,
    });
  };
}

export function hasUncompressed({ records }: Device): Promise<boolean> {
  return records.hasUncompressed(FLOWS);
}

/** A sync to its end; `expired` when the server no longer knows the session (every record stays on the device). */
export async function sync(
  { localStore, records, transport }: Device,
  tecnico: string,
  onStatus: (text: string) => void,
): Promise<Outcome & { expired?: string }> {
  try {
    const engine = new SyncEngine({
      db: localStore.db,
      records,
      transport,
      flows: FLOWS,
      tecnico,
      // The copies of what was sent give way, oldest first, when the device runs short of space (issue 39).
      storageUsage: () => readStorageUsage(),
      // 'Sincronizacao concluida' waits until the app itself opens offline (below).
      onStatus: (text) => onStatus(text === SYNC_TEXTS.done ? READINESS_TEXTS.waitingApp : text),
    });
    const result = await engine.run();
    if (!result.ok) return { status: null, error: true };
    const appReady = !supportsOfflineApp() || (await waitForAppShell());
    return { status: appReady ? SYNC_TEXTS.done : READINESS_TEXTS.appNotSaved, error: !appReady };
  } catch (cause) {
    if (cause instanceof SessionExpiredError) return { status: null, error: true, expired: cause.message };
    return { status: messageOf(cause), error: true };
  }
}

const messageOf = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause));
