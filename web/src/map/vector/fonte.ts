// Where the vector layer reads its tiles: the project's package through our server's {z}/{x}/{y} URL (the device's
// cache answers it offline). A tile the package lacks draws as empty land, never as an error.
import { ZxySource, type Feature, type TileSource, type Zxy } from 'protomaps-leaflet';

export type Bloco = Map<string, Feature[]>;

/** The tile source protomaps-leaflet reads: its own URL source, less the errors of tiles the package has not. */
export class FontePacote implements TileSource {
  private readonly zxy: TileSource;

  constructor(
    url: string,
    private readonly minZoom: number,
    zxy?: TileSource,
  ) {
    // shouldCancelZooms: a zoom the user has left stops downloading its tiles.
    this.zxy = zxy ?? new ZxySource(url, true);
  }

  async get(c: Zxy, tileSize: number): Promise<Bloco> {
    // Below the package's first zoom there is nothing to ask for (404s all).
    if (c.z < this.minZoom) return new Map();
    try {
      return await this.zxy.get(c, tileSize);
    } catch (error) {
      if (!blocoAusente(error)) throw error;
      return new Map();
    }
  }
}

/**
 * The source reads any answer as a tile, so a 404 (outside the package; its body is JSON) fails to decode: that
 * is an empty tile, and it may be kept as one. A fetch that did not happen (offline and not downloaded, TypeError)
 * or was called off (a zoom left, AbortError) is not: rethrown, so the tile is asked again next time.
 */
export function blocoAusente(error: unknown): boolean {
  if (error instanceof TypeError) return false;
  const nome = typeof error === 'object' && error !== null && 'name' in error ? error.name : undefined;
  return nome !== 'AbortError';
}
