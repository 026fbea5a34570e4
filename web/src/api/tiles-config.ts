// GET /api/config, the tile part the field map needs: street, satellite and the bulk 'Download do Mapa' source.
import { z } from 'zod';
import type { ApiClient } from './client';

const tilesSchema = z.object({
  tiles: z.object({
    street: z.string(),
    satellite: z.string(),
    /** null: this installation has no source for offline downloads. */
    download: z.string().nullable().optional(),
  }),
});

export interface TileConfig {
  street: string;
  satellite: string;
  download: string | null;
}

export async function getTileConfig(api: ApiClient): Promise<TileConfig> {
  const { tiles } = await api.json('GET', '/api/config', tilesSchema);
  return { street: tiles.street, satellite: tiles.satellite, download: tiles.download ?? null };
}
