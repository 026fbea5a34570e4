// The supervisor map of a city-sized project (issue 41): the server clusters the points on a grid of the Web Mercator
// world at the map's zoom, tile by tile (256-px tiles, as Leaflet's), and remembers each tile per project, filters
// and version (migration 0020), so a pan asks the database only for the tiles it has not seen, and the whole city
// is read once per version, not once per move. Cells are 64 px when clustering (a cluster per layer and cell, at
// its points' mean position) and 2 px when the points are drawn singly (one point per cell: its first record).
import { FLUXOS, type Fluxo } from '@novus/domain/flows/keys';
import type { GradeTile } from '@novus/domain/api/mapa';
import type { Queryable } from '../../db/database.ts';
import { compactIds, STATUS_SQL, where, type MapaFiltro } from './queries.ts';

export const TILE_PIXELS = 256;
/** A cluster's cell: about the distance at which supercluster (60 px) joined points on the small projects' maps. */
export const CLUSTER_CELL = 64;
/** Points drawn singly share a cell only when they would cover each other on screen anyway. */
export const PONTO_CELL = 2;
/** From this zoom on every point is drawn on its own (the worker's CLUSTER_MAX_ZOOM + 1). */
export const SINGLE_ZOOM = 17;

export type Modo = 'clusters' | 'pontos';

export interface GradeFiltro extends MapaFiltro {
  sinalizados?: boolean;
}

/** The latitude of a world-pixel row at `zoom` (inverse Web Mercator). */
function latOfY(y: number, zoom: number): number {
  const n = Math.PI - (2 * Math.PI * y) / (TILE_PIXELS * 2 ** zoom);
  return (180 / Math.PI) * Math.atan(Math.sinh(n));
}

function lngOfX(x: number, zoom: number): number {
  return (x / (TILE_PIXELS * 2 ** zoom)) * 360 - 180;
}

/** The map's filters, and only the flagged records under 'Somente sinalizados'. */
function gradeWhere(filtro: GradeFiltro, params: unknown[]): string {
  return `${where(filtro, params)}${filtro.sinalizados ? ' AND r.flags -> 0 IS NOT NULL' : ''}`;
}

export function cellOf(modo: Modo, zoom: number): number {
  return modo === 'clusters' && zoom < SINGLE_ZOOM ? CLUSTER_CELL : PONTO_CELL;
}

interface CellRow {
  fluxo: Fluxo;
  cx: number;
  cy: number;
  n: number;
  lat: number;
  lng: number;
  id: string | null;
  status: number | null;
}

/**
 * The tiles `tiles` ([x, y] at `zoom`), computed in one query over the box around them: the cells of every layer,
 * each cell's tile known from the cell. Tiles without points come back empty.
 */
export async function gradeTiles(
  db: Queryable,
  filtro: GradeFiltro,
  zoom: number,
  modo: Modo,
  tiles: readonly (readonly [number, number])[],
): Promise<GradeTile[]> {
  const cell = cellOf(modo, zoom);
  const xs = tiles.map(([x]) => x);
  const ys = tiles.map(([, y]) => y);
  const west = lngOfX(Math.min(...xs) * TILE_PIXELS, zoom);
  const east = lngOfX((Math.max(...xs) + 1) * TILE_PIXELS, zoom);
  const north = latOfY(Math.min(...ys) * TILE_PIXELS, zoom);
  const south = latOfY((Math.max(...ys) + 1) * TILE_PIXELS, zoom);
  const params: unknown[] = [];
  const condition = gradeWhere(filtro, params);
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const world = param(TILE_PIXELS * 2 ** zoom);
  const size = param(cell);
  const singly = cell === PONTO_CELL;
  // The clusters without their records' ids: text ids of a million rows cost ≈ 1 s of the ≈ 1.3 s of a whole city.
  // Points drawn singly (2-px cells) take each cell's first record.
  const rows = await db.query<CellRow>(
    `WITH c AS (
       SELECT r.fluxo,
         floor((r.lng + 180) / 360 * ${world} / ${size})::int AS cx,
         floor((0.5 - ln((1 + sin(radians(r.lat))) / (1 - sin(radians(r.lat)))) / (4 * pi())) * ${world} / ${size})::int AS cy,
         count(*)::int AS n, avg(r.lat) AS lat, avg(r.lng) AS lng${singly ? ', min(r.id::text) AS id' : ''}
       FROM registros r
       WHERE ${condition} AND r.lat IS NOT NULL AND r.lng IS NOT NULL
         AND r.lat BETWEEN ${param(south)} AND ${param(north)} AND r.lng BETWEEN ${param(west)} AND ${param(east)}
       GROUP BY 1, 2, 3)
     SELECT c.fluxo, c.cx, c.cy, c.n, c.lat, c.lng, ${singly ? 'c.id' : 'NULL'} AS id,
       ${singly ? `(SELECT ${STATUS_SQL} FROM registros r WHERE r.id = c.id::uuid)` : 'NULL'} AS status
     FROM c`,
    params,
  );
  if (!singly) await singlesOf(db, filtro, rows);
  return tilesOf(rows, cell, tiles);
}

/** The cells placed in their tiles (a cell lies in one tile: 256 is a multiple of every cell size). */
function tilesOf(rows: readonly CellRow[], cell: number, tiles: readonly (readonly [number, number])[]): GradeTile[] {
  const perTile = TILE_PIXELS / cell;
  const byTile = new Map<string, { c: number[]; p: number[]; uuids: string[] }>();
  for (const [x, y] of tiles) byTile.set(`${x}/${y}`, { c: [], p: [], uuids: [] });
  for (const row of rows) {
    const tile = byTile.get(`${Math.floor(row.cx / perTile)}/${Math.floor(row.cy / perTile)}`);
    if (tile === undefined) continue; // a cell of the box around the tiles, outside every tile asked for
    const layer = FLUXOS.indexOf(row.fluxo);
    const lat = Math.round(row.lat * 1e6);
    const lng = Math.round(row.lng * 1e6);
    if (row.id !== null) {
      tile.p.push(layer, lat, lng, row.status ?? 0);
      tile.uuids.push(row.id);
    } else {
      tile.c.push(layer, lat, lng, row.n);
    }
  }
  return tiles.map(([x, y]) => {
    const tile = byTile.get(`${x}/${y}`) ?? { c: [], p: [], uuids: [] };
    return { x, y, clusters: tile.c, pontos: tile.p, ids: compactIds(tile.uuids.join('')) };
  });
}

/**
 * A project's clusters at BASE_ZOOM, all of them: each cell's layer, place, count and the sums of its points'
 * coordinates. The cells of every lower zoom are unions of these (the grid of zoom z - 1 is the grid of z with
 * cells twice as large), so one read of the project serves the clusters of every zoom up to BASE_ZOOM: a zoom out
 * or a pan at city scale costs no query. ≈ 60,000 cells for a million points over a 33 km city.
 */
export interface Base {
  fluxo: Uint8Array;
  cx: Int32Array;
  cy: Int32Array;
  n: Int32Array;
  sumLat: Float64Array;
  sumLng: Float64Array;
}

/** From this zoom down, a tile's clusters come from the project's base (≈ 300 m cells at Curitiba's latitude). */
export const BASE_ZOOM = 15;

export async function baseOf(db: Queryable, filtro: GradeFiltro): Promise<Base> {
  const params: unknown[] = [];
  const condition = gradeWhere(filtro, params);
  const world = TILE_PIXELS * 2 ** BASE_ZOOM;
  const rows = await db.query<{ fluxo: Fluxo; cx: number; cy: number; n: number; slat: number; slng: number }>(
    `SELECT r.fluxo,
       floor((r.lng + 180) / 360 * ${world / CLUSTER_CELL})::int AS cx,
       floor((0.5 - ln((1 + sin(radians(r.lat))) / (1 - sin(radians(r.lat)))) / (4 * pi())) * ${world / CLUSTER_CELL})::int AS cy,
       count(*)::int AS n, sum(r.lat) AS slat, sum(r.lng) AS slng
     FROM registros r
     WHERE ${condition} AND r.lat IS NOT NULL AND r.lng IS NOT NULL
     GROUP BY 1, 2, 3`,
    params,
  );
  const base: Base = {
    fluxo: new Uint8Array(rows.length),
    cx: new Int32Array(rows.length),
    cy: new Int32Array(rows.length),
    n: new Int32Array(rows.length),
    sumLat: new Float64Array(rows.length),
    sumLng: new Float64Array(rows.length),
  };
  rows.forEach((row, i) => {
    base.fluxo[i] = FLUXOS.indexOf(row.fluxo);
    base.cx[i] = row.cx;
    base.cy[i] = row.cy;
    base.n[i] = row.n;
    base.sumLat[i] = row.slat;
    base.sumLng[i] = row.slng;
  });
  return base;
}

/** A base's weight in the cache, bytes. */
export function baseBytes(base: Base): number {
  return base.n.length * 37;
}

/**
 * The clustered tiles at `zoom` ≤ BASE_ZOOM, merged from the base: each cell of `zoom` sums the base cells inside
 * it. A merged cell of one point is that point (its sums are its coordinates), found as gradeTiles finds them.
 */
export async function tilesFromBase(
  db: Queryable,
  filtro: GradeFiltro,
  base: Base,
  zoom: number,
  tiles: readonly (readonly [number, number])[],
): Promise<GradeTile[]> {
  const shift = BASE_ZOOM - zoom;
  const perTile = TILE_PIXELS / CLUSTER_CELL;
  const wanted = new Set(tiles.map(([x, y]) => `${x}/${y}`));
  const cells = new Map<string, CellRow & { sumLat: number; sumLng: number }>();
  for (let i = 0; i < base.n.length; i += 1) {
    const cx = (base.cx[i] ?? 0) >> shift;
    const cy = (base.cy[i] ?? 0) >> shift;
    if (!wanted.has(`${Math.floor(cx / perTile)}/${Math.floor(cy / perTile)}`)) continue;
    const fluxo = FLUXOS[base.fluxo[i] ?? 0] ?? 'hc';
    const key = `${fluxo}|${cx}|${cy}`;
    const cell = cells.get(key);
    if (cell === undefined) {
      cells.set(key, {
        fluxo,
        cx,
        cy,
        n: base.n[i] ?? 0,
        lat: 0,
        lng: 0,
        id: null,
        status: null,
        sumLat: base.sumLat[i] ?? 0,
        sumLng: base.sumLng[i] ?? 0,
      });
    } else {
      cell.n += base.n[i] ?? 0;
      cell.sumLat += base.sumLat[i] ?? 0;
      cell.sumLng += base.sumLng[i] ?? 0;
    }
  }
  const rows = [...cells.values()].map((cell) => ({ ...cell, lat: cell.sumLat / cell.n, lng: cell.sumLng / cell.n }));
  await singlesOf(db, filtro, rows);
  return tilesOf(rows, CLUSTER_CELL, tiles);
}

/**
 * The record of each cell that holds one point: the cell's mean is that point's own position (a sum of one value
 * divided by one), so the index finds it by its coordinates. Fills the rows' `id` and `status`.
 */
async function singlesOf(db: Queryable, filtro: GradeFiltro, rows: CellRow[]): Promise<void> {
  const singles = rows.filter((row) => row.n === 1);
  if (singles.length === 0) return;
  const params: unknown[] = [];
  const condition = gradeWhere(filtro, params);
  params.push(
    singles.map((row) => row.fluxo),
    singles.map((row) => row.lat),
    singles.map((row) => row.lng),
  );
  const n = params.length;
  const found = await db.query<{ fluxo: Fluxo; lat: number; lng: number; id: string; status: number }>(
    `SELECT r.fluxo, r.lat, r.lng, r.id::text AS id, ${STATUS_SQL} AS status
     FROM unnest($${n - 2}::text[], $${n - 1}::float8[], $${n}::float8[]) AS s(fluxo, lat, lng)
     JOIN registros r ON r.lng = s.lng AND r.lat = s.lat AND r.fluxo = s.fluxo
     WHERE ${condition}`,
    params,
  );
  const byPlace = new Map(found.map((row) => [`${row.fluxo}|${row.lat}|${row.lng}`, row]));
  for (const row of singles) {
    const record = byPlace.get(`${row.fluxo}|${row.lat}|${row.lng}`);
    if (record === undefined) continue; // written away since the clusters were read: drawn as a cluster of one
    row.id = record.id;
    row.status = record.status;
  }
}

/** The project's version: its newest change (migration 0020), '0' before any. */
export async function versaoMapa(db: Queryable, projeto: string): Promise<string> {
  const [row] = await db.query<{ v: string | null }>(
    'SELECT max(id)::text AS v FROM mapa_mudancas WHERE projeto = $1',
    [projeto],
  );
  return row?.v ?? '0';
}

/** Drops a project's changes older than its version: only the newest is ever read. */
export async function podarMudancas(db: Queryable, projeto: string, versao: string): Promise<void> {
  await db.query('DELETE FROM mapa_mudancas WHERE projeto = $1 AND id < $2', [projeto, versao]);
}

export interface Resumo {
  contagens: Partial<Record<Fluxo, number>>;
  /** [[south, west], [north, east]] of every point, or null. */
  limites: [[number, number], [number, number]] | null;
  total: number;
}

/** How many points each layer has and the box around them: what the page needs before any tile. */
export async function resumo(db: Queryable, filtro: GradeFiltro): Promise<Resumo> {
  const params: unknown[] = [];
  const condition = gradeWhere(filtro, params);
  const rows = await db.query<{
    fluxo: Fluxo;
    n: number;
    s: number;
    w: number;
    no: number;
    e: number;
  }>(
    `SELECT r.fluxo, count(*)::int AS n, min(r.lat) AS s, min(r.lng) AS w, max(r.lat) AS no, max(r.lng) AS e
     FROM registros r WHERE ${condition} AND r.lat IS NOT NULL AND r.lng IS NOT NULL GROUP BY r.fluxo`,
    params,
  );
  const contagens: Partial<Record<Fluxo, number>> = {};
  let total = 0;
  let box: [[number, number], [number, number]] | null = null;
  for (const row of rows) {
    contagens[row.fluxo] = row.n;
    total += row.n;
    box =
      box === null
        ? [
            [row.s, row.w],
            [row.no, row.e],
          ]
        : [
            [Math.min(box[0][0], row.s), Math.min(box[0][1], row.w)],
            [Math.max(box[1][0], row.no), Math.max(box[1][1], row.e)],
          ];
  }
  return { contagens, limites: box, total };
}
