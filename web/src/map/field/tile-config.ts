// The tile URL templates, remembered on the device: the map must draw offline, where /api/config cannot answer.
import { useEffect, useState } from 'react';
import { getConfig, type TileConfig } from '@novus/domain/api/sistema';
import { useShell } from '../../shared/services';

const KEY = 'novus.tiles';

function remembered(): TileConfig | null {
  try {
    const raw = window.localStorage.getItem(KEY);
    if (raw === null) return null;
    const parsed = JSON.parse(raw) as Partial<TileConfig>;
    if (typeof parsed.street !== 'string' || typeof parsed.satellite !== 'string') return null;
    return { street: parsed.street, satellite: parsed.satellite, download: parsed.download ?? null };
  } catch {
    return null;
  }
}

/** The templates: undefined while a first visit waits for the server, null when it could not answer. */
export function useTileConfig(): TileConfig | null | undefined {
  const { api } = useShell();
  const [config, setConfig] = useState<TileConfig | null | undefined>(() => remembered() ?? undefined);
  useEffect(() => {
    let active = true;
    api.call(getConfig, {}).then(
      ({ tiles: fresh }) => {
        window.localStorage.setItem(KEY, JSON.stringify(fresh));
        if (active) setConfig(fresh);
      },
      () => {
        // offline: the remembered templates serve, if any
        if (active) setConfig((known) => known ?? null);
      },
    );
    return () => {
      active = false;
    };
  }, [api]);
  return config;
}
