// What the cluster worker does, as plain code the tests can run: one supercluster index per layer, so ticking a
// layer off only leaves it out of the next query (nothing is rebuilt), and a bbox scan of the raw coordinates
// when the points are drawn one by one. It knows layers by number (their place in FLUXOS) and points by index.
import Supercluster, { type PointFeature } from 'supercluster';

/** Clusters up to this zoom; from the next one on every point is drawn on its own. */
export const CLUSTER_MAX_ZOOM = 16;
/** Screen pixels within which points of a layer join a cluster. */
export const CLUSTER_RADIUS = 60;
/** supercluster counts pixels on 512-px tiles by default; Leaflet's are 256 px. */
const TILE_SIZE = 256;
const COORD_SCALE = 1e6;

/** One layer as the main thread sends it: coordinates in millionths of a degree, lat and lng interleaved. */
export interface LayerLoad {
  layer: number;
  coords: Int32Array;
  count: number;
}

export interface ViewQuery {
  /** west, south, east, north in degrees. */
  bbox: [number, number, number, number];
  zoom: number;
  clusterizar: boolean;
  /** Bit `layer` set: the layer is shown. */
  mask: number;
}

/** What a view shows, as typed arrays so it crosses to the main thread without copying. */
export interface QueryResult {
  /** Single points: their layer and index in it. */
  pointLayer: Uint8Array;
  pointIndex: Uint32Array;
  /** Clusters: layer, supercluster id (for the expansion zoom), centre and how many points they hold. */
  clusterLayer: Uint8Array;
  clusterId: Uint32Array;
  clusterLat: Float64Array;
  clusterLng: Float64Array;
  clusterCount: Uint32Array;
}

interface LayerState {
  coords: Int32Array;
  count: number;
  /** Built on the first clustered query after a load or a change. */
  index: Supercluster<{ i: number }> | null;
}

/** A growable list of numbers, copied into a typed array at the end. */
class Column<T extends Uint8Array | Uint32Array | Float64Array> {
  private data: T;
  length = 0;

  constructor(private readonly make: (size: number) => T) {
    this.data = make(256);
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = this.make(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length] = value;
    this.length += 1;
  }

  done(): T {
    return this.data.slice(0, this.length) as T; // slice of a T is a T
  }
}

export class ClusterEngine {
  private layers = new Map<number, LayerState>();

  /**
   * Replaces every layer (a project or its filters changed) and builds the cluster indexes of the layers in
   * `prepare` (bit `layer`) at once: the page is still drawing the map then, and the first query finds them ready.
   */
  load(layers: readonly LayerLoad[], prepare = 0): void {
    this.layers = new Map(
      layers.map((layer) => [layer.layer, { coords: layer.coords, count: layer.count, index: null }]),
    );
    for (const [layer, state] of this.layers) {
      if ((prepare & (1 << layer)) !== 0 && state.count > 0) indexOf(state);
    }
  }

  /** Adds point `index` (when it is the layer's next one) or moves it; the layer's index is rebuilt lazily. */
  upsert(layer: number, index: number, lat: number, lng: number): void {
    let state = this.layers.get(layer);
    if (state === undefined) {
      state = { coords: new Int32Array(32), count: 0, index: null };
      this.layers.set(layer, state);
    }
    if (index > state.count) return; // an index the main thread never gave: ignore rather than leave a hole
    if (index === state.count) {
      if (state.coords.length < (index + 1) * 2) {
        const coords = new Int32Array(Math.max(32, state.coords.length * 2));
        coords.set(state.coords.subarray(0, state.count * 2));
        state.coords = coords;
      }
      state.count += 1;
    }
    state.coords[2 * index] = lat;
    state.coords[2 * index + 1] = lng;
    state.index = null;
  }

  query({ bbox, zoom, clusterizar, mask }: ViewQuery): QueryResult {
    const pointLayer = new Column((n) => new Uint8Array(n));
    const pointIndex = new Column((n) => new Uint32Array(n));
    const clusterLayer = new Column((n) => new Uint8Array(n));
    const clusterId = new Column((n) => new Uint32Array(n));
    const clusterLat = new Column((n) => new Float64Array(n));
    const clusterLng = new Column((n) => new Float64Array(n));
    const clusterCount = new Column((n) => new Uint32Array(n));
    const clustered = clusterizar && Math.floor(zoom) <= CLUSTER_MAX_ZOOM;

    for (const [layer, state] of this.layers) {
      if ((mask & (1 << layer)) === 0 || state.count === 0) continue;
      if (!clustered) {
        scanBox(state, bbox, (i) => {
          pointLayer.push(layer);
          pointIndex.push(i);
        });
        continue;
      }
      for (const feature of indexOf(state).getClusters(bbox, Math.floor(zoom))) {
        const properties = feature.properties;
        if ('cluster' in properties && properties.cluster) {
          const [lng = 0, lat = 0] = feature.geometry.coordinates;
          clusterLayer.push(layer);
          clusterId.push(properties.cluster_id);
          clusterLat.push(lat);
          clusterLng.push(lng);
          clusterCount.push(properties.point_count);
        } else if ('i' in properties) {
          pointLayer.push(layer);
          pointIndex.push(properties.i);
        }
      }
    }
    return {
      pointLayer: pointLayer.done(),
      pointIndex: pointIndex.done(),
      clusterLayer: clusterLayer.done(),
      clusterId: clusterId.done(),
      clusterLat: clusterLat.done(),
      clusterLng: clusterLng.done(),
      clusterCount: clusterCount.done(),
    };
  }

  /** The zoom at which a cluster falls apart (where a click on it takes the map). */
  expansionZoom(layer: number, clusterId: number): number {
    const state = this.layers.get(layer);
    if (state === undefined) return CLUSTER_MAX_ZOOM + 1;
    try {
      return indexOf(state).getClusterExpansionZoom(clusterId);
    } catch {
      // the layer changed since that cluster was drawn: its id names nothing now
      return CLUSTER_MAX_ZOOM + 1;
    }
  }
}

/**
 * Clusters a few thousand made-up points and throws the result away, so the clustering code is compiled before
 * a project's points arrive: a fresh worker runs it about twice as slow as a warm one (100,000 points over five
 * layers: ≈ 400 ms cold, ≈ 190 ms after this, Node on the 2-core machine, 2026-11). The worker runs it on start,
 * while the page waits for the user and then for the server; it costs ≈ 150 ms of the worker's time.
 */
export function warmUp(rounds = 3, points = 5000): void {
  let seed = 1;
  const next = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % 50_000;
  };
  for (let round = 0; round < rounds; round += 1) {
    const coords = new Int32Array(points * 2);
    for (let i = 0; i < points; i += 1) {
      coords[2 * i] = -25_460_000 + next();
      coords[2 * i + 1] = -49_300_000 + next();
    }
    const engine = new ClusterEngine();
    engine.load([{ layer: 0, coords, count: points }], 1);
    engine.query({ bbox: [-49.31, -25.47, -49.24, -25.4], zoom: 13, clusterizar: true, mask: 1 });
  }
}

/** Calls `found` with the index of every point of the layer inside the box. */
function scanBox(state: LayerState, bbox: ViewQuery['bbox'], found: (i: number) => void): void {
  const west = bbox[0] * COORD_SCALE;
  const south = bbox[1] * COORD_SCALE;
  const east = bbox[2] * COORD_SCALE;
  const north = bbox[3] * COORD_SCALE;
  const { coords, count } = state;
  for (let i = 0; i < count; i += 1) {
    const lat = coords[2 * i] ?? 0;
    const lng = coords[2 * i + 1] ?? 0;
    if (lat >= south && lat <= north && lng >= west && lng <= east) found(i);
  }
}

function indexOf(state: LayerState): Supercluster<{ i: number }> {
  if (state.index !== null) return state.index;
  const features: PointFeature<{ i: number }>[] = new Array(state.count);
  for (let i = 0; i < state.count; i += 1) {
    features[i] = {
      type: 'Feature',
      properties: { i },
      geometry: {
        type: 'Point',
        coordinates: [(state.coords[2 * i + 1] ?? 0) / COORD_SCALE, (state.coords[2 * i] ?? 0) / COORD_SCALE],
      },
    };
  }
  const index = new Supercluster<{ i: number }>({
    maxZoom: CLUSTER_MAX_ZOOM,
    radius: CLUSTER_RADIUS,
    extent: TILE_SIZE,
  });
  index.load(features);
  state.index = index;
  return index;
}

// The messages between the page and the worker (cluster.worker.ts). Replies name the request they answer.
export type WorkerRequest =
  | { type: 'load'; layers: LayerLoad[]; prepare: number }
  | { type: 'upsert'; layer: number; index: number; lat: number; lng: number }
  | { type: 'query'; id: number; query: ViewQuery }
  | { type: 'expansion'; id: number; layer: number; clusterId: number };

export type WorkerReply =
  { type: 'query'; id: number; result: QueryResult } | { type: 'expansion'; id: number; zoom: number };

/** Runs one request; a reply comes with the buffers to transfer back. */
export function handleRequest(
  engine: ClusterEngine,
  request: WorkerRequest,
): { reply: WorkerReply; transfer: ArrayBuffer[] } | null {
  switch (request.type) {
    case 'load':
      engine.load(request.layers, request.prepare);
      return null;
    case 'upsert':
      engine.upsert(request.layer, request.index, request.lat, request.lng);
      return null;
    case 'query': {
      const result = engine.query(request.query);
      return {
        reply: { type: 'query', id: request.id, result },
        // every array was made by Column.done() over an ArrayBuffer of its own (never a SharedArrayBuffer)
        transfer: Object.values(result).map(
          (array: QueryResult[keyof QueryResult]) => array.buffer as ArrayBuffer,
        ),
      };
    }
    case 'expansion':
      return {
        reply: {
          type: 'expansion',
          id: request.id,
          zoom: engine.expansionZoom(request.layer, request.clusterId),
        },
        transfer: [],
      };
  }
}
