// What the home tells about the device: ready for the field or what is missing, persistent storage, usage,
// and what is still waiting to reach the server. Read again after each sync or compression (`version`).
import { useEffect, useState } from 'react';
import { FLOWS } from '@novus/domain/flows/registry';
import { getTileConfig } from '../api/tiles-config';
import { useServices } from '../app/services';
import {
  appShellCached,
  cachedTileKeys,
  projetosMissingTiles,
  summarizeReadiness,
  supportsOfflineApp,
  waitForAppShell,
  type ReadinessSummary,
} from '../offline/readiness';
import { readStorageUsage, requestPersistentStorage, type StorageUsage } from '../offline/storage';
import { summarizePending, type PendingSummary } from '../offline/storage-panel';

/** Whether this server offers 'Download do Mapa', remembered for the days without signal. */
const TILE_DOWNLOAD_KEY = 'novus.tileDownload';

export interface OfflineStatus {
  readiness: ReadinessSummary | null;
  persisted: boolean | null;
  usage: StorageUsage | null;
  pending: PendingSummary | null;
  /** When the figures were read, for the ages. */
  readAt: number;
}

async function tileDownloadConfigured(api: Parameters<typeof getTileConfig>[0]): Promise<boolean> {
  try {
    const { download } = await getTileConfig(api);
    window.localStorage.setItem(TILE_DOWNLOAD_KEY, download === null ? 'nao' : 'sim');
    return download !== null;
  } catch {
    // Offline: what the server said last time; never asked yet, assume the map can be downloaded.
    return window.localStorage.getItem(TILE_DOWNLOAD_KEY) !== 'nao';
  }
}

async function persistedAnswer(): Promise<boolean | null> {
  if (typeof navigator === 'undefined' || !navigator.storage?.persist) return null;
  return requestPersistentStorage().catch(() => false);
}

export function useOfflineStatus(version: number): OfflineStatus {
  const { records, localStore, api } = useServices();
  const [status, setStatus] = useState<OfflineStatus>({
    readiness: null,
    persisted: null,
    usage: null,
    pending: null,
    readAt: Date.now(),
  });

  useEffect(() => {
    let active = true;
    const update = (part: Partial<OfflineStatus>) => {
      if (active) setStatus((prev) => ({ ...prev, ...part, readAt: Date.now() }));
    };
    void persistedAnswer().then((persisted) => update({ persisted }));
    void readStorageUsage()
      .then((usage) => update({ usage }))
      .catch(() => undefined);
    void (async () => {
      const entries = [];
      for (const flow of FLOWS) entries.push({ flow, records: await records.getAll(flow) });
      update({ pending: summarizePending(entries) });
    })().catch(() => undefined);
    void (async () => {
      const projetos = await localStore.listProjetos();
      const [app, tiles, configured] = await Promise.all([
        appShellCached().catch(() => false),
        cachedTileKeys().catch(() => new Set<string>()),
        tileDownloadConfigured(api),
      ]);
      const readiness = (appReady: boolean) =>
        summarizeReadiness({
          app: appReady,
          projetos: projetos.length > 0,
          mapas: configured ? projetosMissingTiles(projetos, tiles) : [],
        });
      update({ readiness: readiness(app) });
      // On a first visit the service worker is still installing: say so, then say when it is done.
      if (
        !app &&
        supportsOfflineApp() &&
        (await waitForAppShell(
          120_000,
          () => appShellCached(),
          1000,
          () => !active,
        ))
      ) {
        update({ readiness: readiness(true) });
      }
    })().catch(() => undefined);
    return () => {
      active = false;
    };
  }, [records, localStore, api, version]);

  return status;
}
