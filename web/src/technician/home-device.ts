// What the home reads from the device's database and caches (the registry, Dexie, the service worker's cache):
// loaded beside the home, which shows its storage figures before this arrives (issue 13).
import { FLOWS } from '@novus/domain/flows/registry';
import type { ApiClient } from '../api/client';
import { getTileConfig } from '../api/tiles-config';
import type { Device } from '../app/services';
import {
  appShellCached,
  cachedTileKeys,
  projetosMissingTiles,
  summarizeReadiness,
  supportsOfflineApp,
  waitForAppShell,
  type ReadinessSummary,
} from '../offline/readiness';
import { summarizePending, type PendingSummary } from '../offline/storage-panel';

/** Whether this server offers 'Download do Mapa', remembered for the days without signal. */
const TILE_DOWNLOAD_KEY = 'novus.tileDownload';

async function tileDownloadConfigured(api: ApiClient): Promise<boolean> {
  try {
    const { download } = await getTileConfig(api);
    window.localStorage.setItem(TILE_DOWNLOAD_KEY, download === null ? 'nao' : 'sim');
    return download !== null;
  } catch {
    // Offline: what the server said last time; never asked yet, assume the map can be downloaded.
    return window.localStorage.getItem(TILE_DOWNLOAD_KEY) !== 'nao';
  }
}

/** Every record the server has not got yet, per flow, with the oldest's age. */
export async function readPending({ records }: Device): Promise<PendingSummary> {
  const entries = [];
  for (const flow of FLOWS) entries.push({ flow, records: await records.getAll(flow) });
  return summarizePending(entries);
}

/**
 * Ready for the field or what is missing; `onAppSaved` hears when a first visit's service worker has saved the
 * app (`stopped` ends the wait when the home goes away).
 */
export async function readReadiness(
  { localStore }: Device,
  api: ApiClient,
  onAppSaved: (readiness: ReadinessSummary) => void,
  stopped: () => boolean,
): Promise<ReadinessSummary> {
  const projetos = await localStore.listProjetos();
  const [app, tiles, configured] = await Promise.all([
    appShellCached().catch(() => false),
    cachedTileKeys().catch(() => new Set<string>()),
    tileDownloadConfigured(api),
  ]);
  const summary = (appReady: boolean) =>
    summarizeReadiness({
      app: appReady,
      projetos: projetos.length > 0,
      mapas: configured ? projetosMissingTiles(projetos, tiles) : [],
    });
  // On a first visit the service worker is still installing: say so, then say when it is done.
  if (!app && supportsOfflineApp()) {
    void waitForAppShell(120_000, () => appShellCached(), 1000, stopped)
      .then((saved) => saved && onAppSaved(summary(true)))
      .catch(() => undefined);
  }
  return summary(app);
}
