import Supercluster from 'supercluster';
import { describe, expect, it, vi } from 'vitest';
import {
  CLUSTER_MAX_ZOOM,
  ClusterEngine,
  handleRequest,
  type LayerLoad,
  type QueryResult,
  type ViewQuery,
  warmUp,
} from '../src/backoffice/supervisor/cluster-engine';

const UNIDADES = 0;
const POSTES = 1;
const BOTH = (1 << UNIDADES) | (1 << POSTES);
/** Zona Centro, Curitiba, with room to spare. */
const CENTRO: ViewQuery['bbox'] = [-49.4, -25.6, -49.1, -25.3];

/** side × side points about 11 m apart, from (-25.44, -49.28), in millionths of a degree. */
function grid(layer: number, side: number, offset = 0): LayerLoad {
  const coords = new Int32Array(side * side * 2);
  for (let row = 0; row < side; row += 1) {
    for (let col = 0; col < side; col += 1) {
      const i = row * side + col;
      coords[2 * i] = -25_440_000 + row * 100 + offset;
      coords[2 * i + 1] = -49_280_000 + col * 100 + offset;
    }
  }
  return { layer, coords, count: side * side };
}

function total(result: QueryResult): number {
  return result.pointIndex.length + result.clusterCount.reduce((sum, count) => sum + count, 0);
}

describe('ClusterEngine', () => {
  it('gathers each layer into clusters of its own that count all its points', () => {
    const engine = new ClusterEngine();
    engine.load([grid(UNIDADES, 100), grid(POSTES, 50, 30)]);
    const result = engine.query({ bbox: CENTRO, zoom: 13, clusterizar: true, mask: BOTH });
    expect(total(result)).toBe(12_500);
    const unidades = result.clusterLayer.reduce(
      (n, layer, k) => n + (layer === UNIDADES ? (result.clusterCount[k] ?? 0) : 0),
      0,
    );
    expect(unidades).toBe(10_000);
    expect(result.clusterId.length).toBeLessThan(50);
  });

  it('leaves an unticked layer out of the answer without rebuilding anything', () => {
    const engine = new ClusterEngine();
    engine.load([grid(UNIDADES, 100), grid(POSTES, 50, 30)]);
    engine.query({ bbox: CENTRO, zoom: 13, clusterizar: true, mask: BOTH });
    const onlyPoles = engine.query({ bbox: CENTRO, zoom: 13, clusterizar: true, mask: 1 << POSTES });
    expect(total(onlyPoles)).toBe(2_500);
    expect(new Set(onlyPoles.clusterLayer)).toEqual(new Set([POSTES]));
    expect(total(engine.query({ bbox: CENTRO, zoom: 13, clusterizar: true, mask: 0 }))).toBe(0);
  });

  it('without clustering, answers every point in the box and none outside it', () => {
    const engine = new ClusterEngine();
    engine.load([grid(UNIDADES, 10)]);
    // rows 0..4 and columns 0..2 only
    const box: ViewQuery['bbox'] = [-49.28001, -25.44001, -49.27979, -25.43959];
    const result = engine.query({ bbox: box, zoom: 12, clusterizar: false, mask: BOTH });
    expect(result.clusterId.length).toBe(0);
    expect(result.pointIndex.length).toBe(15);
    expect(
      Array.from(result.pointIndex)
        .sort((a, b) => a - b)
        .slice(0, 4),
    ).toEqual([0, 1, 2, 10]);
  });

  it('draws single points from the zoom after the last clustered one', () => {
    const engine = new ClusterEngine();
    engine.load([grid(UNIDADES, 20)]);
    const result = engine.query({ bbox: CENTRO, zoom: CLUSTER_MAX_ZOOM + 1, clusterizar: true, mask: BOTH });
    expect(result.clusterId.length).toBe(0);
    expect(result.pointIndex.length).toBe(400);
  });

  it('takes a cluster click to the zoom where it falls apart', () => {
    const engine = new ClusterEngine();
    engine.load([grid(UNIDADES, 30)]);
    const result = engine.query({ bbox: CENTRO, zoom: 10, clusterizar: true, mask: BOTH });
    const zoom = engine.expansionZoom(UNIDADES, result.clusterId[0] ?? -1);
    expect(zoom).toBeGreaterThan(10);
    expect(zoom).toBeLessThanOrEqual(CLUSTER_MAX_ZOOM + 1);
    expect(engine.expansionZoom(UNIDADES, 987_654)).toBe(CLUSTER_MAX_ZOOM + 1);
  });

  it('adds a live point to its layer, and moves one it has', () => {
    const engine = new ClusterEngine();
    engine.load([grid(UNIDADES, 2)]);
    engine.upsert(UNIDADES, 4, -25_500_000, -49_300_000);
    engine.upsert(POSTES, 0, -25_500_000, -49_300_000);
    engine.upsert(UNIDADES, 0, -25_500_100, -49_300_000);
    engine.upsert(UNIDADES, 9, 0, 0); // an index never given: ignored
    const far: ViewQuery['bbox'] = [-49.31, -25.51, -49.29, -25.49];
    const result = engine.query({ bbox: far, zoom: 18, clusterizar: true, mask: BOTH });
    expect(Array.from(result.pointLayer)).toEqual([UNIDADES, UNIDADES, POSTES]);
    expect(Array.from(result.pointIndex).sort()).toEqual([0, 0, 4]);
    expect(total(engine.query({ bbox: CENTRO, zoom: 5, clusterizar: true, mask: 1 << UNIDADES }))).toBe(5);
  });

  it('indexes the prepared layers on load, and the others on the first query that shows them', () => {
    const built = vi.spyOn(Supercluster.prototype, 'load');
    try {
      const engine = new ClusterEngine();
      engine.load([grid(UNIDADES, 10), grid(POSTES, 10, 30)], 1 << UNIDADES);
      expect(built).toHaveBeenCalledTimes(1);
      engine.query({ bbox: CENTRO, zoom: 12, clusterizar: true, mask: 1 << UNIDADES });
      expect(built).toHaveBeenCalledTimes(1);
      engine.query({ bbox: CENTRO, zoom: 12, clusterizar: true, mask: BOTH });
      expect(built).toHaveBeenCalledTimes(2);
    } finally {
      built.mockRestore();
    }
  });

  it('toggles a layer of 100,000 points well within 100 ms', () => {
    const engine = new ClusterEngine();
    engine.load([grid(UNIDADES, 316), grid(POSTES, 100, 30)]);
    engine.query({ bbox: CENTRO, zoom: 12, clusterizar: true, mask: BOTH }); // builds the indexes once
    const started = performance.now();
    const off = engine.query({ bbox: CENTRO, zoom: 12, clusterizar: true, mask: 1 << POSTES });
    const on = engine.query({ bbox: CENTRO, zoom: 12, clusterizar: true, mask: BOTH });
    const elapsed = performance.now() - started;
    expect(total(off)).toBe(10_000);
    expect(total(on)).toBe(316 * 316 + 10_000);
    expect(elapsed).toBeLessThan(100);
  });
});

describe('warmUp', () => {
  it('clusters made-up points and keeps nothing of them', () => {
    const built = vi.spyOn(Supercluster.prototype, 'load');
    try {
      warmUp(2, 500);
      expect(built).toHaveBeenCalledTimes(2);
      // an engine made afterwards starts empty
      expect(
        total(new ClusterEngine().query({ bbox: CENTRO, zoom: 12, clusterizar: true, mask: BOTH })),
      ).toBe(0);
    } finally {
      built.mockRestore();
    }
  });
});

describe('handleRequest', () => {
  it('answers queries with transferable buffers and loads without answering', () => {
    const engine = new ClusterEngine();
    expect(handleRequest(engine, { type: 'load', layers: [grid(UNIDADES, 3)], prepare: 0 })).toBeNull();
    const answer = handleRequest(engine, {
      type: 'query',
      id: 7,
      query: { bbox: CENTRO, zoom: 18, clusterizar: true, mask: BOTH },
    });
    expect(answer?.reply.type).toBe('query');
    expect(answer?.reply.id).toBe(7);
    expect(answer?.transfer).toHaveLength(7);
    expect(answer?.transfer.every((buffer) => buffer instanceof ArrayBuffer)).toBe(true);
    if (answer?.reply.type === 'query') expect(answer.reply.result.pointIndex.length).toBe(9);
  });
});
