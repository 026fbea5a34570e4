// The page's side of the cluster worker: sends the layers once (transferring their buffers), then asks for the
// clusters of a view or the expansion zoom of a cluster, each answer matched to its request.
import { FLUXOS } from '@novus/domain/flows/keys';
import type { QueryResult, ViewQuery, WorkerReply, WorkerRequest } from './cluster-engine';
import type { PontoRef, PontosStore } from './compact-points';
import { layerOf } from './layers';
import type { PontosSource } from './pontos-source';

interface Pending {
  resolve: (reply: WorkerReply) => void;
}

export class ClusterClient implements PontosSource {
  private readonly worker: Worker;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private loaded: PontosStore | null = null;

  constructor() {
    // Vite bundles the worker from this exact expression (new Worker(new URL(...), { type: 'module' })).
    this.worker = new Worker(new URL('./cluster.worker.ts', import.meta.url), { type: 'module' });
    this.worker.onmessage = (event: MessageEvent<WorkerReply>) => {
      const pending = this.pending.get(event.data.id);
      this.pending.delete(event.data.id);
      pending?.resolve(event.data);
    };
  }

  /**
   * Replaces the worker's layers with copies of the store's (the store keeps its own for drawing), once per store,
   * and has it index the layers in `prepare` (bit per layer) straight away.
   */
  load(store: PontosStore, prepare: number): void {
    if (store === this.loaded) return;
    this.loaded = store;
    const layers = FLUXOS.map((fluxo) => {
      const camada = store.camadas[fluxo];
      return { layer: layerOf(fluxo), count: camada.count, coords: camada.coords.slice(0, camada.count * 2) };
    });
    this.post(
      { type: 'load', layers, prepare },
      layers.map((layer) => layer.coords.buffer),
    );
  }

  /**
   * Whether the worker holds this store's points. The page loads a new answer into the worker before the map gets
   * it, so for a moment the map's store is not the worker's: what the worker says then is about other points.
   */
  holds(store: PontosStore): boolean {
    return store === this.loaded;
  }

  /** Tells the worker a point was added or moved (the store already holds it); nothing if it holds other points. */
  upsert(store: PontosStore, ref: PontoRef): void {
    if (!this.holds(store)) return;
    const { coords } = store.camadas[ref.fluxo];
    this.post({
      type: 'upsert',
      layer: layerOf(ref.fluxo),
      index: ref.index,
      lat: coords[2 * ref.index] ?? 0,
      lng: coords[2 * ref.index + 1] ?? 0,
    });
  }

  async query(query: ViewQuery): Promise<QueryResult> {
    const reply = await this.request((id) => ({ type: 'query', id, query }));
    if (reply.type !== 'query') throw new Error('Resposta inesperada do worker de clusters');
    return reply.result;
  }

  async expansionZoom(layer: number, clusterId: number): Promise<number> {
    const reply = await this.request((id) => ({ type: 'expansion', id, layer, clusterId }));
    if (reply.type !== 'expansion') throw new Error('Resposta inesperada do worker de clusters');
    return reply.zoom;
  }

  terminate(): void {
    this.worker.terminate();
    this.pending.clear();
  }

  private request(make: (id: number) => WorkerRequest): Promise<WorkerReply> {
    const id = this.nextId;
    this.nextId += 1;
    return new Promise((resolve) => {
      this.pending.set(id, { resolve });
      this.post(make(id));
    });
  }

  private post(request: WorkerRequest, transfer: ArrayBuffer[] = []): void {
    this.worker.postMessage(request, transfer);
  }
}
