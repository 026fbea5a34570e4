// What one draw of the supervisor map put on screen, in world pixels (Web Mercator at the draw's zoom, the
// coordinates Leaflet's map.project gives): the canvas paints it, and a click or the e2e hook looks in it.
import { FLUXOS, type Fluxo } from '@novus/domain/flows/keys';
import { STATUS } from '@novus/domain/mapa/api';
import type { QueryResult } from './cluster-engine';
import { COORD_SCALE, type PontoRef, type PontosStore } from './compact-points';
import { type Colorir, paintRank, pointPaint, revisaoRank } from './layers';

/** Radius of a single point, in CSS pixels. */
export const POINT_RADIUS = 6;
/** A click this close to a point (or inside a cluster's disc, if larger) picks it. */
export const HIT_DISTANCE = 10;
/** A click on a point's disc (its radius plus its outline) picks the topmost one there, not merely the nearest. */
const DISC_DISTANCE = POINT_RADIUS + 1.5;

const TILE_SIZE = 256;
const MAX_LATITUDE = 85.0511287798;

/** Web Mercator x of a longitude, 0..1 across the world. */
function mercatorX(lng: number): number {
  return lng / 360 + 0.5;
}

/** Web Mercator y of a latitude, 0 (north) .. 1 (south), clamped as Leaflet clamps it. */
function mercatorY(lat: number): number {
  const clamped = Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat));
  const sin = Math.sin((clamped * Math.PI) / 180);
  return 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI);
}

/** Leaflet's EPSG:3857 world pixel of a longitude at `zoom` (256-px tiles). */
export function worldX(lng: number, zoom: number): number {
  return TILE_SIZE * 2 ** zoom * mercatorX(lng);
}

/** Leaflet's EPSG:3857 world pixel of a latitude at `zoom`. */
export function worldY(lat: number, zoom: number): number {
  return TILE_SIZE * 2 ** zoom * mercatorY(lat);
}

/** A cluster's disc grows with what it holds. */
export function clusterRadius(count: number): number {
  if (count < 10) return 13;
  if (count < 100) return 16;
  if (count < 1000) return 19;
  return 22;
}

/** The count written on a cluster: 999, 1,2k, 12k. */
export function clusterLabel(count: number): string {
  if (count < 1000) return String(count);
  if (count < 10_000) return `${(Math.round(count / 100) / 10).toString().replace('.', ',')}k`;
  return `${Math.round(count / 1000)}k`;
}

export interface ViewFrame {
  zoom: number;
  result: QueryResult;
  /** Single points: their layer's flow, where they are, their paint rank (layers.ts) and conflict ring. */
  pointFluxo: Fluxo[];
  pointX: Float64Array;
  pointY: Float64Array;
  pointRank: Uint8Array;
  pointConflito: Uint8Array;
  clusterX: Float64Array;
  clusterY: Float64Array;
  clusterR: Float64Array;
}

/** Every value of a point's STATUS bits (STATUS_DIGITS). */
const STATUS_VALUES = 64;

/**
 * Places a worker's answer at `zoom`. Points the store does not know (a stale answer) are left out. `colorir`
 * 'revisao' ranks (and so paints) each point by its review state instead of its layer.
 */
export function frameOf(
  result: QueryResult,
  store: PontosStore,
  zoom: number,
  colorir: Colorir = 'fluxo',
): ViewFrame {
  const points = result.pointIndex.length;
  const pointFluxo: Fluxo[] = new Array(points);
  const pointX = new Float64Array(points);
  const pointY = new Float64Array(points);
  const pointRank = new Uint8Array(points);
  const pointConflito = new Uint8Array(points);
  // per layer, once: its points and how each STATUS value paints (no object per point: 100,000 of them)
  const camadas = FLUXOS.map((fluxo) => store.camadas[fluxo]);
  const ranks = FLUXOS.map((fluxo) =>
    Array.from({ length: STATUS_VALUES }, (_, status) => {
      const { hollow } = pointPaint(fluxo, status);
      return colorir === 'revisao' ? revisaoRank(hollow, status) : paintRank(fluxo, hollow);
    }),
  );
  const scale = TILE_SIZE * 2 ** zoom;
  for (let k = 0; k < points; k += 1) {
    const layer = result.pointLayer[k] ?? -1;
    const camada = camadas[layer];
    const index = result.pointIndex[k] ?? 0;
    if (camada === undefined || index >= camada.count) {
      pointFluxo[k] = 'hc';
      pointX[k] = Number.NaN;
      pointY[k] = Number.NaN;
      continue;
    }
    const status = camada.status[index] ?? 0;
    pointFluxo[k] = camada.fluxo;
    pointX[k] = scale * mercatorX((camada.coords[2 * index + 1] ?? 0) / COORD_SCALE);
    pointY[k] = scale * mercatorY((camada.coords[2 * index] ?? 0) / COORD_SCALE);
    pointRank[k] = ranks[layer]?.[status] ?? 0;
    pointConflito[k] = (status & STATUS.conflito) !== 0 ? 1 : 0;
  }
  const clusters = result.clusterId.length;
  const clusterX = new Float64Array(clusters);
  const clusterY = new Float64Array(clusters);
  const clusterR = new Float64Array(clusters);
  for (let k = 0; k < clusters; k += 1) {
    clusterX[k] = worldX(result.clusterLng[k] ?? 0, zoom);
    clusterY[k] = worldY(result.clusterLat[k] ?? 0, zoom);
    clusterR[k] = clusterRadius(result.clusterCount[k] ?? 0);
  }
  return {
    zoom,
    result,
    pointFluxo,
    pointX,
    pointY,
    pointRank,
    pointConflito,
    clusterX,
    clusterY,
    clusterR,
  };
}

/** How many single points a frame draws (stale ones left out). */
export function drawnPoints(frame: ViewFrame): number {
  let drawn = 0;
  for (let k = 0; k < frame.pointX.length; k += 1) if (!Number.isNaN(frame.pointX[k])) drawn += 1;
  return drawn;
}

export type Hit =
  | { kind: 'point'; ref: PontoRef }
  | { kind: 'cluster'; layer: number; clusterId: number; lat: number; lng: number };

/**
 * What a click at world pixel (x, y) picks: the topmost point whose disc is under it (as a person sees it), else
 * the nearest point within HIT_DISTANCE, else a cluster whose disc (or HIT_DISTANCE, if larger) holds the click.
 * Points are drawn over clusters, so a point within reach wins.
 */
export function hitTest(frame: ViewFrame, x: number, y: number): Hit | null {
  const { result } = frame;
  let top = -1;
  let nearest = -1;
  let nearestDistance = Infinity;
  for (let k = 0; k < frame.pointX.length; k += 1) {
    const distance = Math.hypot((frame.pointX[k] ?? Number.NaN) - x, (frame.pointY[k] ?? Number.NaN) - y);
    if (!(distance <= HIT_DISTANCE)) continue;
    // within one rank the later point is painted over the earlier
    if (distance <= DISC_DISTANCE && (top === -1 || (frame.pointRank[k] ?? 0) >= (frame.pointRank[top] ?? 0)))
      top = k;
    if (distance < nearestDistance) {
      nearestDistance = distance;
      nearest = k;
    }
  }
  const picked = top !== -1 ? top : nearest;
  if (picked !== -1)
    return {
      kind: 'point',
      ref: { fluxo: frame.pointFluxo[picked] ?? 'hc', index: result.pointIndex[picked] ?? 0 },
    };

  let best: Hit | null = null;
  let bestDistance = Infinity;
  for (let k = 0; k < frame.clusterX.length; k += 1) {
    const distance = Math.hypot((frame.clusterX[k] ?? 0) - x, (frame.clusterY[k] ?? 0) - y);
    if (distance <= Math.max(HIT_DISTANCE, frame.clusterR[k] ?? 0) && distance < bestDistance) {
      bestDistance = distance;
      best = {
        kind: 'cluster',
        layer: result.clusterLayer[k] ?? 0,
        clusterId: result.clusterId[k] ?? 0,
        lat: result.clusterLat[k] ?? 0,
        lng: result.clusterLng[k] ?? 0,
      };
    }
  }
  return best;
}

/**
 * Where the canvas stamps each point, in whole CSS pixels of the container: per paint rank (in paint order) and
 * for the conflict rings. A point whose 2×2-pixel cell already holds a stamp of its rank would paint (almost) the
 * same pixels, so it is left out: 100,000 points zoomed out onto a small area cost a few thousand stamps.
 */
export interface PaintPlan {
  /** x, y pairs per rank. */
  ranks: Int32Array[];
  conflito: Int32Array;
}

/** How far beyond the canvas a point may lie and still show part of its disc (ring included). */
const PAINT_MARGIN = POINT_RADIUS + 6;
/** Side of the cells, in CSS pixels, within which points of one rank are stamped once. */
const STAMP_CELL = 2;

export function paintPlan(
  frame: ViewFrame,
  originX: number,
  originY: number,
  width: number,
  height: number,
  rankCount: number,
): PaintPlan {
  const points = frame.pointX.length;
  // counting sort of the points by rank, keeping their order within a rank (later ones are painted on top)
  const starts = new Int32Array(rankCount + 1);
  for (let k = 0; k < points; k += 1)
    if (!Number.isNaN(frame.pointX[k])) starts[(frame.pointRank[k] ?? 0) + 1] += 1;
  for (let rank = 0; rank < rankCount; rank += 1) starts[rank + 1] += starts[rank] ?? 0;
  const order = new Int32Array(starts[rankCount] ?? 0);
  const next = starts.slice(0, rankCount);
  for (let k = 0; k < points; k += 1) {
    if (Number.isNaN(frame.pointX[k])) continue;
    const rank = frame.pointRank[k] ?? 0;
    order[next[rank] ?? 0] = k;
    next[rank] = (next[rank] ?? 0) + 1;
  }

  // the cells cover the canvas and its margin, where a point still shows part of its disc
  const columns = Math.ceil((width + 2 * PAINT_MARGIN) / STAMP_CELL);
  const rows = Math.ceil((height + 2 * PAINT_MARGIN) / STAMP_CELL);
  const stamped = new Uint8Array(Math.max(0, columns * rows));
  const out = new Int32Array(order.length * 2);
  let written = 0;
  const place = (k: number, stamp: number) => {
    const x = Math.round((frame.pointX[k] ?? 0) - originX);
    const y = Math.round((frame.pointY[k] ?? 0) - originY);
    if (x < -PAINT_MARGIN || y < -PAINT_MARGIN || x >= width + PAINT_MARGIN || y >= height + PAINT_MARGIN)
      return;
    const cell =
      Math.floor((y + PAINT_MARGIN) / STAMP_CELL) * columns + Math.floor((x + PAINT_MARGIN) / STAMP_CELL);
    if (stamped[cell] === stamp) return;
    stamped[cell] = stamp;
    out[written] = x;
    out[written + 1] = y;
    written += 2;
  };
  const ranks: Int32Array[] = [];
  for (let rank = 0; rank < rankCount; rank += 1) {
    const from = written;
    for (let i = starts[rank] ?? 0; i < (starts[rank + 1] ?? 0); i += 1) place(order[i] ?? 0, rank + 1);
    ranks.push(out.subarray(from, written));
  }
  const conflito: number[] = [];
  for (let k = 0; k < points; k += 1) {
    if (frame.pointConflito[k] !== 1 || Number.isNaN(frame.pointX[k])) continue;
    conflito.push(Math.round((frame.pointX[k] ?? 0) - originX), Math.round((frame.pointY[k] ?? 0) - originY));
  }
  return { ranks, conflito: Int32Array.from(conflito) };
}

/** Where point `ref` was drawn on its own (world pixels), or null when this frame did not draw it alone. */
export function drawnAt(frame: ViewFrame, ref: PontoRef): [number, number] | null {
  for (let k = 0; k < frame.pointX.length; k += 1) {
    if (frame.pointFluxo[k] !== ref.fluxo || frame.result.pointIndex[k] !== ref.index) continue;
    const x = frame.pointX[k] ?? Number.NaN;
    const y = frame.pointY[k] ?? Number.NaN;
    return Number.isNaN(x) ? null : [x, y];
  }
  return null;
}
