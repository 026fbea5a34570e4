// Where the supervisor map's drawn points come from: the page's cluster worker for a project the browser can hold
// (cluster-client.ts), the server's grid for a city-sized one (grade-client.ts). The controller asks either alike.
import type { QueryResult, ViewQuery } from './cluster-engine';
import type { PontoRef, PontosStore } from './compact-points';

export interface PontosSource {
  /** The store the next queries are about; `prepare` (bit per layer) the layers to cluster at once. */
  load: (store: PontosStore, prepare: number) => void;
  /** Whether the answers are about this store's points. */
  holds: (store: PontosStore) => boolean;
  /** A live event added or moved point `ref` of the store. */
  upsert: (store: PontosStore, ref: PontoRef) => void;
  /** What the view shows: clusters, and single points as places in the store. */
  query: (query: ViewQuery) => Promise<QueryResult>;
  /** The zoom at which a drawn cluster falls apart. */
  expansionZoom: (layer: number, clusterId: number) => Promise<number>;
}
