// The supervisor map's points of a city-sized project (issue 41): the server clusters them on its grid of 256-px
// tiles (GET /api/projeto/{id}/mapa/grade), and this source asks it for the tiles of each view it has not seen,
// keeping the ones it got (every layer in each, so ticking a layer only filters). Single points join the page's
// store as they arrive, so popups, live events and the e2e hook find them as they find a small project's.
import { getMapaGrade, GRADE_MAX_TILES, type GradeTile } from '@novus/domain/api/mapa';
import { FLUXOS, type Fluxo } from '@novus/domain/flows/keys';
import type { ApiClient } from '../../api/client';
import type { QueryResult, ViewQuery } from './cluster-engine';
import type { PontoRef, PontosStore } from './compact-points';
import type { PontosSource } from './pontos-source';
import { worldX, worldY } from './view-frame';

const TILE_PIXELS = 256;
const ID_LENGTH = 22;

/** A tile as the page keeps it: its clusters, and its single points as places in the store. */
interface Tile {
  clusters: number[];
  pointLayer: number[];
  pointIndex: number[];
}

export interface GradeFiltros {
  tecnico?: string;
  dataInicio?: string;
  dataFim?: string;
}

export class GradeClient implements PontosSource {
  private store: PontosStore | null = null;
  private readonly tiles = new Map<string, Tile>();
  /** Bumped by each live change: an answer asked for before it is used once, not kept. */
  private generation = 0;
  private lastZoom = 0;
  /** Hears each answer's counts per layer (the project's, at the version the tiles are of). */
  onContagens: ((contagens: Partial<Record<Fluxo, number>>) => void) | null = null;

  constructor(
    private readonly api: ApiClient,
    private readonly projetoId: string,
    private readonly filtros: GradeFiltros,
    private readonly sinalizados: boolean,
  ) {}

  load(store: PontosStore): void {
    if (store === this.store) return;
    this.store = store;
    this.tiles.clear();
  }

  holds(store: PontosStore): boolean {
    return store === this.store;
  }

  /** A live point: the tiles under it, at every zoom, are asked for again. */
  upsert(store: PontosStore, ref: PontoRef): void {
    if (!this.holds(store)) return;
    const [lat, lng] = store.latLngAt(ref);
    this.generation += 1;
    for (const key of [...this.tiles.keys()]) {
      const [, zoom = 0, x = 0, y = 0] = key.split(/[|/]/).map(Number);
      const tx = Math.floor(worldX(lng, zoom) / TILE_PIXELS);
      const ty = Math.floor(worldY(lat, zoom) / TILE_PIXELS);
      if (tx === x && ty === y) this.tiles.delete(key);
    }
  }

  async query({ bbox, zoom, clusterizar, mask }: ViewQuery): Promise<QueryResult> {
    const store = this.store;
    const z = Math.round(zoom);
    this.lastZoom = z;
    const modo = clusterizar ? 'clusters' : 'pontos';
    const [west, south, east, north] = bbox;
    const last = 2 ** z - 1;
    const clamp = (value: number) => Math.max(0, Math.min(last, value));
    const x0 = clamp(Math.floor(worldX(west, z) / TILE_PIXELS));
    const x1 = clamp(Math.floor(worldX(east, z) / TILE_PIXELS));
    const y0 = clamp(Math.floor(worldY(north, z) / TILE_PIXELS));
    const y1 = clamp(Math.floor(worldY(south, z) / TILE_PIXELS));
    const wanted: string[] = [];
    for (let x = x0; x <= x1; x += 1) for (let y = y0; y <= y1; y += 1) wanted.push(`${x}:${y}`);
    const keyOf = (tile: string) => `${modo}|${z}/${tile.replace(':', '/')}`;
    const missing = wanted.filter((tile) => !this.tiles.has(keyOf(tile)));
    const fetched = new Map<string, Tile>();
    for (let start = 0; start < missing.length && store !== null; start += GRADE_MAX_TILES) {
      const generation = this.generation;
      const answer = await this.api.call(getMapaGrade, {
        params: { id: this.projetoId },
        query: {
          z,
          tiles: missing.slice(start, start + GRADE_MAX_TILES).join(','),
          modo,
          sinalizados: this.sinalizados ? '1' : '0',
          ...this.filtros,
        },
      });
      if (store !== this.store) break;
      this.onContagens?.(answer.contagens);
      for (const tile of answer.tiles) {
        const kept = keep(tile, store);
        const key = `${tile.x}:${tile.y}`;
        fetched.set(key, kept);
        if (generation === this.generation) this.tiles.set(keyOf(key), kept);
      }
    }
    return resultOf(
      wanted.flatMap((tile) => fetched.get(tile) ?? this.tiles.get(keyOf(tile)) ?? []),
      mask,
    );
  }

  /** A server cluster holds points within one cell: two zooms in spread them apart. */
  expansionZoom(): Promise<number> {
    return Promise.resolve(this.lastZoom + 2);
  }
}

/** The tile's single points put in the store (their places there), its clusters as they came. */
function keep(tile: GradeTile, store: PontosStore): Tile {
  const kept: Tile = { clusters: tile.clusters, pointLayer: [], pointIndex: [] };
  for (let k = 0; 4 * k < tile.pontos.length; k += 1) {
    const layer = tile.pontos[4 * k] ?? -1;
    const fluxo: Fluxo | undefined = FLUXOS[layer];
    if (fluxo === undefined) continue;
    const lat = tile.pontos[4 * k + 1] ?? 0;
    const lng = tile.pontos[4 * k + 2] ?? 0;
    const { ref } = store.put(
      fluxo,
      tile.ids.slice(k * ID_LENGTH, (k + 1) * ID_LENGTH),
      lat,
      lng,
      tile.pontos[4 * k + 3] ?? 0,
    );
    kept.pointLayer.push(layer);
    kept.pointIndex.push(ref.index);
  }
  return kept;
}

/** The tiles' clusters and points of the layers in `mask`, as the worker would answer. */
function resultOf(tiles: readonly Tile[], mask: number): QueryResult {
  const pointLayer: number[] = [];
  const pointIndex: number[] = [];
  const clusterLayer: number[] = [];
  const clusterLat: number[] = [];
  const clusterLng: number[] = [];
  const clusterCount: number[] = [];
  for (const tile of tiles) {
    for (let k = 0; k < tile.pointLayer.length; k += 1) {
      const layer = tile.pointLayer[k] ?? -1;
      if ((mask & (1 << layer)) === 0) continue;
      pointLayer.push(layer);
      pointIndex.push(tile.pointIndex[k] ?? 0);
    }
    for (let k = 0; 4 * k < tile.clusters.length; k += 1) {
      const layer = tile.clusters[4 * k] ?? -1;
      if ((mask & (1 << layer)) === 0) continue;
      clusterLayer.push(layer);
      clusterLat.push((tile.clusters[4 * k + 1] ?? 0) / 1e6);
      clusterLng.push((tile.clusters[4 * k + 2] ?? 0) / 1e6);
      clusterCount.push(tile.clusters[4 * k + 3] ?? 0);
    }
  }
  return {
    pointLayer: Uint8Array.from(pointLayer),
    pointIndex: Uint32Array.from(pointIndex),
    clusterLayer: Uint8Array.from(clusterLayer),
    // a server cluster is found by where it is, not by an id: its place in this answer
    clusterId: Uint32Array.from(clusterLayer, (_, k) => k),
    clusterLat: Float64Array.from(clusterLat),
    clusterLng: Float64Array.from(clusterLng),
    clusterCount: Uint32Array.from(clusterCount),
  };
}
