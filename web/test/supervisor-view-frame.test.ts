import { describe, expect, it } from 'vitest';
import { compactFromUuid, PontosStore } from '../src/backoffice/supervisor/compact-points';
import type { QueryResult } from '../src/backoffice/supervisor/cluster-engine';
import { layerOf, PAINT_RANKS, paintRank } from '../src/backoffice/supervisor/layers';
import {
  clusterLabel,
  drawnAt,
  drawnPoints,
  frameOf,
  hitTest,
  paintPlan,
  worldX,
  worldY,
} from '../src/backoffice/supervisor/view-frame';

const ID = (n: number) => compactFromUuid(`0190a6c2-7b3e-7c1d-9f00-${String(n).padStart(12, '0')}`);

/** Two units and one IP point in Zona Centro. */
function store(): PontosStore {
  return new PontosStore([
    {
      fluxo: 'hc',
      ids: ID(1) + ID(2),
      coords: [-25_429_600, -49_271_300, -25_429_000, -49_270_000],
      status: '11',
    },
    { fluxo: 'ip', ids: ID(3), coords: [-25_429_650, -49_271_350], status: '0' },
  ]);
}

function result(partial: Partial<QueryResult>): QueryResult {
  return {
    pointLayer: new Uint8Array(0),
    pointIndex: new Uint32Array(0),
    clusterLayer: new Uint8Array(0),
    clusterId: new Uint32Array(0),
    clusterLat: new Float64Array(0),
    clusterLng: new Float64Array(0),
    clusterCount: new Uint32Array(0),
    ...partial,
  };
}

describe('Web Mercator world pixels (Leaflet EPSG:3857, 256-px tiles)', () => {
  it('puts the origin at the centre of the world and the antimeridian at its edge', () => {
    expect(worldX(0, 0)).toBe(128);
    expect(worldY(0, 0)).toBeCloseTo(128, 9);
    expect(worldX(180, 2)).toBe(1024);
    expect(worldX(-90, 1)).toBe(128);
    expect(worldY(85.0511287798, 0)).toBeCloseTo(0, 6);
    expect(worldY(89.9, 0)).toBeCloseTo(0, 6); // clamped as Leaflet clamps
  });

  it('agrees with the OSM wiki slippy-map tile formula (Curitiba at zoom 13)', () => {
    const lat = -25.4296;
    const lng = -49.2713;
    const tiles = 2 ** 13;
    const tileX = Math.floor(((lng + 180) / 360) * tiles);
    const rad = (lat * Math.PI) / 180;
    const tileY = Math.floor(((1 - Math.asinh(Math.tan(rad)) / Math.PI) / 2) * tiles);
    expect(Math.floor(worldX(lng, 13) / 256)).toBe(tileX);
    expect(Math.floor(worldY(lat, 13) / 256)).toBe(tileY);
    expect(worldY(lat, 13) / 256).toBeCloseTo(((1 - Math.asinh(Math.tan(rad)) / Math.PI) / 2) * tiles, 9);
  });
});

describe('frames of the supervisor canvas', () => {
  const zoom = 18;
  const pontos = store();
  const frame = frameOf(
    result({
      pointLayer: Uint8Array.from([layerOf('hc'), layerOf('ip'), layerOf('hc'), layerOf('hc')]),
      pointIndex: Uint32Array.from([0, 0, 1, 7]), // 7: not in the store (a stale answer)
      clusterLayer: Uint8Array.from([layerOf('poste')]),
      clusterId: Uint32Array.from([42]),
      clusterLat: Float64Array.from([-25.428]),
      clusterLng: Float64Array.from([-49.268]),
      clusterCount: Uint32Array.from([250]),
    }),
    pontos,
    zoom,
  );

  it('counts what it draws, leaving out points the store does not know', () => {
    expect(drawnPoints(frame)).toBe(3);
    expect(frame.clusterR[0]).toBe(19);
  });

  it('picks the nearest point within 10 px of a click, and nothing further away', () => {
    const x = worldX(-49.2713, zoom);
    const y = worldY(-25.4296, zoom);
    expect(hitTest(frame, x + 3, y)).toEqual({ kind: 'point', ref: { fluxo: 'hc', index: 0 } });
    const ipX = worldX(-49.27135, zoom);
    const ipY = worldY(-25.42965, zoom);
    expect(hitTest(frame, ipX, ipY + 1)).toEqual({ kind: 'point', ref: { fluxo: 'ip', index: 0 } });
    expect(hitTest(frame, x + 200, y + 200)).toBeNull();
  });

  it('picks the topmost disc under the click, as a person sees it, before a merely nearer one', () => {
    const overlapping = new PontosStore([
      { fluxo: 'hc', ids: ID(1), coords: [-25_429_600, -49_271_300], status: '1' },
      { fluxo: 'ip', ids: ID(2), coords: [-25_429_600, -49_271_290], status: '0' },
    ]);
    const both = frameOf(
      result({
        pointLayer: Uint8Array.from([layerOf('hc'), layerOf('ip')]),
        pointIndex: Uint32Array.from([0, 0]),
      }),
      overlapping,
      zoom,
    );
    const ipX = worldX(-49.27129, zoom);
    const ipY = worldY(-25.4296, zoom);
    // on the hollow IP point's centre, but the unit's filled disc is painted over it
    expect(hitTest(both, ipX, ipY)).toEqual({ kind: 'point', ref: { fluxo: 'hc', index: 0 } });
    // beyond the unit's disc, the IP point is the nearest within reach
    expect(hitTest(both, ipX + 8, ipY)).toEqual({ kind: 'point', ref: { fluxo: 'ip', index: 0 } });
  });

  it('picks a cluster anywhere on its disc', () => {
    const x = worldX(-49.268, zoom);
    const y = worldY(-25.428, zoom);
    expect(hitTest(frame, x + 15, y)).toEqual({
      kind: 'cluster',
      layer: layerOf('poste'),
      clusterId: 42,
      lat: -25.428,
      lng: -49.268,
    });
    expect(hitTest(frame, x + 25, y)).toBeNull();
  });

  it('tells where a point was drawn on its own, or that it was not', () => {
    expect(drawnAt(frame, { fluxo: 'hc', index: 1 })).toEqual([worldX(-49.27, zoom), worldY(-25.429, zoom)]);
    expect(drawnAt(frame, { fluxo: 'poste', index: 0 })).toBeNull();
  });

  it('stamps one point per pixel and rank, in paint order, and none far off the canvas', () => {
    const many = new PontosStore([
      {
        fluxo: 'ip',
        ids: Array.from({ length: 1000 }, (_, i) => ID(100 + i)).join(''),
        // 1000 IP points within a metre of each other: one pixel at zoom 12
        coords: Array.from({ length: 1000 }, (_, i) => [
          -25_429_600 - (i % 10),
          -49_271_300 - i / 100,
        ]).flat(),
        status: '0'.repeat(1000),
      },
      {
        fluxo: 'hc',
        ids: ID(1) + ID(2),
        coords: [-25_429_600, -49_271_300, -10_000_000, -40_000_000],
        status: '11',
      },
    ]);
    const z = 12;
    const drawn = frameOf(
      result({
        pointLayer: Uint8Array.from([
          ...Array.from({ length: 1000 }, () => layerOf('ip')),
          layerOf('hc'),
          layerOf('hc'),
        ]),
        pointIndex: Uint32Array.from([...Array.from({ length: 1000 }, (_, i) => i), 0, 1]),
      }),
      many,
      z,
    );
    const originX = worldX(-49.2713, z) - 100;
    const originY = worldY(-25.4296, z) - 100;
    const plan = paintPlan(drawn, originX, originY, 400, 300, PAINT_RANKS);
    const stamps = plan.ranks.map((positions) => positions.length / 2);
    expect(stamps.reduce((sum, n) => sum + n, 0)).toBeLessThanOrEqual(5);
    expect(stamps[paintRank('ip', true)]).toBeGreaterThanOrEqual(1);
    expect(Array.from(plan.ranks[paintRank('hc', false)] ?? [])).toEqual([100, 100]); // the far one left out
    expect(plan.conflito.length).toBe(0);
  });

  it('writes big counts short', () => {
    expect(clusterLabel(999)).toBe('999');
    expect(clusterLabel(1_234)).toBe('1,2k');
    expect(clusterLabel(12_345)).toBe('12k');
  });
});
