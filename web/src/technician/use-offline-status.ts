// What the home tells about the device: ready for the field or what is missing, persistent storage, usage,
// and what is still waiting to reach the server. Read again after each sync or compression (`version`).
// Persistence and usage come from the browser at once; what is in the device's database, from home-device.ts.
import { startTransition, useEffect, useState } from 'react';
import { useShell } from '../shared/services';
import type { CopiasResumo } from '../offline/copias';
import type { MapaBaixado } from '../offline/mapas';
import type { ReadinessSummary } from '../offline/readiness';
import { readStorageUsage, requestPersistentStorage, type StorageUsage } from '../offline/storage';
import type { PendingSummary } from '../offline/storage-panel';

export interface OfflineStatus {
  readiness: ReadinessSummary | null;
  /** undefined until the browser answers; null when it cannot say. */
  persisted: boolean | null | undefined;
  usage: StorageUsage | null | undefined;
  pending: PendingSummary | null;
  /** The copies of what was sent (issue 39), null until read (or on a device that keeps none). */
  copias: CopiasResumo | null;
  /** The maps downloaded on the device ('Download do Mapa'), null until read. */
  mapas: MapaBaixado[] | null;
  /** When the figures were read, for the ages. */
  readAt: number;
}

async function persistedAnswer(): Promise<boolean | null> {
  if (typeof navigator === 'undefined' || !navigator.storage?.persist) return null;
  // A browser that throws instead of answering has not said: 'indisponível', not 'negado'.
  return requestPersistentStorage().catch(() => null);
}

/** `version` changes after each sync or compression, `mapas` after a map is removed: the figures are read again. */
export function useOfflineStatus(version: number, mapas = 0): OfflineStatus {
  const { api, reader } = useShell();
  const [status, setStatus] = useState<OfflineStatus>({
    readiness: null,
    persisted: undefined,
    usage: undefined,
    pending: null,
    copias: null,
    mapas: null,
    readAt: Date.now(),
  });

  useEffect(() => {
    let active = true;
    const update = (part: Partial<OfflineStatus>) => {
      // a transition: the phone keeps answering taps while the panel redraws
      if (active) startTransition(() => setStatus((prev) => ({ ...prev, ...part, readAt: Date.now() })));
    };
    void persistedAnswer().then((persisted) => update({ persisted }));
    void readStorageUsage()
      .then((usage) => update({ usage }))
      .catch(() => update({ usage: null }));
    const reads = import('./home-device');
    void reads
      .then(({ readPending }) => readPending(reader))
      .then((pending) => update({ pending }))
      .catch(() => undefined);
    void reads
      .then(({ readCopias }) => readCopias())
      .then((copias) => update({ copias }))
      .catch(() => undefined);
    void reads
      .then(({ readMapasBaixados }) => readMapasBaixados())
      .then((list) => update({ mapas: list }))
      .catch(() => update({ mapas: [] }));
    void reads
      .then(({ readReadiness }) =>
        readReadiness(
          reader,
          api,
          (readiness) => update({ readiness }),
          () => !active,
        ),
      )
      .then((readiness) => update({ readiness }))
      .catch(() => undefined);
    return () => {
      active = false;
    };
  }, [api, reader, version, mapas]);

  return status;
}
