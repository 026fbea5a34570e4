// What the home reads from the device's database and caches (the registry, Dexie, the service worker's cache):
// its banners' counts, what is pending and whether the phone is ready for offline use. Loaded beside the home,
// which draws whole before this arrives (issue 13).
import { getConfig } from '@novus/domain/api/sistema';
import { FLOWS } from '@novus/domain/flows/registry';
import type { ApiClient } from '../api/client';
import type { Device } from '../offline/device';
import type { CopiasResumo } from '../offline/copias';
import { type MapaBaixado, readMapas, removerMapa } from '../offline/mapas';
import {
  appShellCached,
  cachedTiles,
  projetosMissingTiles,
  summarizeReadiness,
  supportsOfflineApp,
  waitForAppShell,
  type ReadinessSummary,
} from '../offline/readiness';
import { summarizePending, type PendingSummary } from '../offline/storage-panel';

/** Whether this server offers 'Download do Mapa', remembered for the days without signal. */
const TILE_DOWNLOAD_KEY = 'novus.tileDownload';

/** What the server said last time; never asked yet (or offline since), assume the map can be downloaded. */
function rememberedTileDownload(): boolean {
  return window.localStorage.getItem(TILE_DOWNLOAD_KEY) !== 'nao';
}

/** Asks the server (when it answers) and remembers; false when it cannot say. */
async function askTileDownload(api: ApiClient): Promise<boolean | null> {
  try {
    const { download } = (await api.call(getConfig, {})).tiles;
    window.localStorage.setItem(TILE_DOWNLOAD_KEY, download === null ? 'nao' : 'sim');
    return download !== null;
  } catch {
    return null;
  }
}

export interface Pending {
  fluxo: string;
  label: string;
  count: number;
  /** dataHora of the flow's oldest pending record (null: none), for 'Há registros não sincronizados há mais de 24 horas'. */
  oldest: number | null;
}

/** The home's banners: each flow of the device's projects with its records waiting for the server. */
export async function readPendingBanners({ localStore, records }: Device): Promise<Pending[]> {
  const projetos = await localStore.listProjetos();
  const fluxos = new Set(projetos.flatMap((projeto) => projeto.fluxos));
  const list: Pending[] = [];
  for (const flow of FLOWS) {
    if (!fluxos.has(flow.key)) continue;
    const pending = await records.pending(flow);
    const oldest = pending.length > 0 ? Math.min(...pending.map((record) => record.dataHora)) : null;
    list.push({ fluxo: flow.key, label: flow.labels.banner, count: pending.length, oldest });
  }
  return list;
}

/** The home's 'Correções' banner (issue 24): records the reviewer rejected that the technician has not fixed yet. */
export async function readCorrecoesAFazer({ records }: Device): Promise<number> {
  let count = 0;
  for (const flow of FLOWS) {
    count += (await records.correcoes(flow)).filter((record) => record.sincronizadoEm).length;
  }
  return count;
}

/** Every record the server has not got yet, per flow, with the oldest's age. */
export async function readPending({ records }: Device): Promise<PendingSummary> {
  const entries = [];
  for (const flow of FLOWS) entries.push({ flow, records: await records.getAll(flow) });
  return summarizePending(entries);
}

/** The copies of what was sent (issue 39), for the storage panel; null on a device that keeps none. */
export async function readCopias({ records }: Device): Promise<CopiasResumo | null> {
  return records.copias ? records.copias.resumo() : null;
}

/** The maps downloaded on the device, for the storage panel. */
export function readMapasBaixados(): Promise<MapaBaixado[]> {
  return readMapas();
}

/** Removes a project's downloaded map (its zones, when the project is still on the device, find its server tiles). */
export async function removeMapaBaixado({ localStore }: Device, projeto: string): Promise<void> {
  const local = await localStore.getProjeto(projeto);
  await removerMapa(projeto, local?.zonas);
}

/**
 * Ready for the field or what is missing, from what the device holds and what the server said last time about
 * maps; `onChange` hears the corrections: the server's current answer about maps, and when a first visit's
 * service worker has saved the app (`stopped` ends the wait when the home goes away).
 */
export async function readReadiness(
  { localStore }: Device,
  api: ApiClient,
  onChange: (readiness: ReadinessSummary) => void,
  stopped: () => boolean,
): Promise<ReadinessSummary> {
  const projetos = await localStore.listProjetos();
  const [cached, tiles] = await Promise.all([
    appShellCached().catch(() => false),
    cachedTiles().catch(() => ({ keys: new Set<string>(), urls: new Set<string>(), mapas: [] })),
  ]);
  let app = cached;
  let configured = rememberedTileDownload();
  const summary = () =>
    summarizeReadiness({
      app,
      projetos: projetos.length > 0,
      mapas: projetosMissingTiles(projetos, tiles, { configured, origin: location.origin }),
    });
  void askTileDownload(api).then((answer) => {
    if (answer === null || answer === configured || stopped()) return;
    configured = answer;
    onChange(summary());
  });
  // On a first visit the service worker is still installing: say so, then say when it is done.
  if (!app && supportsOfflineApp()) {
    void waitForAppShell(120_000, () => appShellCached(), 1000, stopped)
      .then((saved) => {
        if (!saved) return;
        app = true;
        onChange(summary());
      })
      .catch(() => undefined);
  }
  return summary();
}
