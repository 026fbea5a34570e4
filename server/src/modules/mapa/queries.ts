// SQL of the supervisor map: the compact form of a project's points, built in the database as text (one row per
// flow, no per-point object in Node), and the statistics.
import type { Fluxo } from '@novus/domain/flows/keys';
import { STATUS, STATUS_DIGITS } from '@novus/domain/mapa/api';
import type { Queryable } from '../../db/database.ts';
import { fromLocalDay, untilLocalDay, userName } from '../../db/fragments.ts';

export interface MapaFiltro {
  projeto: string;
  tecnico?: string;
  dataInicio?: string;
  dataFim?: string;
  /** A technician sees only the points of their zones. */
  zonas?: readonly string[];
}

export function where(filtro: MapaFiltro, params: unknown[]): string {
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const conditions = [`r.projeto = ${param(filtro.projeto)}`, 'r.conflito_de IS NULL'];
  if (filtro.tecnico) conditions.push(`r.tecnico = ${param(filtro.tecnico)}`);
  if (filtro.dataInicio) conditions.push(fromLocalDay('r.data_hora', param(filtro.dataInicio)));
  if (filtro.dataFim) conditions.push(untilLocalDay('r.data_hora', param(filtro.dataFim)));
  if (filtro.zonas) conditions.push(`r.zona = ANY(${param(filtro.zonas)}::uuid[])`);
  return conditions.join(' AND ');
}

/**
 * The STATUS bits of domain/mapa/api.ts, in SQL. The conflict bit asks one hashed set of every record with a
 * competing collection (a handful), not an index probe per point: 100,000 probes cost ≈ 150 ms on PGlite. The
 * review bits (issue 24) read the record's own columns: ≈ +45 ms at 100,000 points on an in-memory PGlite
 * (2026-11-26, loaded machine; best of 15: 164 → 208 ms), `flags -> 0` a little cheaper than `flags <> '[]'`.
 */
export const STATUS_SQL = `((CASE WHEN r.coletado THEN ${STATUS.coletado} ELSE 0 END)
  + (CASE WHEN r.carregado_backoffice THEN ${STATUS.carregadoBackoffice} ELSE 0 END)
  + (CASE WHEN r.id IN (SELECT c.conflito_de FROM registros c WHERE c.conflito_de IS NOT NULL) THEN ${STATUS.conflito} ELSE 0 END)
  + (CASE WHEN r.flags -> 0 IS NOT NULL THEN ${STATUS.sinalizado} ELSE 0 END)
  + (CASE r.revisao WHEN 'aprovado' THEN ${STATUS.aprovado} WHEN 'reprovado' THEN ${STATUS.reprovado} ELSE 0 END))`;

/** A point's STATUS bits as its character of STATUS_DIGITS (one substr per row: the digits are the alphabet's). */
const STATUS_DIGIT_SQL = `substr('${STATUS_DIGITS}', 1 + ${STATUS_SQL}, 1)`;

export interface CamadaRow {
  fluxo: Fluxo;
  ids: string;
  /** "lat,lng,lat,lng,..." in millionths of a degree: the JSON array's inside. */
  coords: string;
  status: string;
}

/**
 * One row per flow with its points' ids (base64url of the 16 bytes), coordinates and status characters, in flow order.
 * The three aggregates read the same rows in the same order, so point i is the i-th of each; the points
 * themselves come in no particular order. Sorting them (by id), base64 in SQL and ORDER BY over the wide rows
 * cost ≈ 700 ms of ≈ 900 on PGlite at 100,000 points (2026-11), so the database only concatenates uuid text and
 * Node encodes it.
 */
export async function camadas(db: Queryable, filtro: MapaFiltro): Promise<CamadaRow[]> {
  const params: unknown[] = [];
  const condition = where(filtro, params);
  const rows = await db.query<{ fluxo: Fluxo; uuids: string; coords: string; status: string }>(
    `SELECT r.fluxo,
        string_agg(r.id::text, '') AS uuids,
        string_agg(round(r.lat * 1000000)::int::text || ',' || round(r.lng * 1000000)::int::text, ',') AS coords,
        string_agg(${STATUS_DIGIT_SQL}, '') AS status
      FROM registros r
      WHERE ${condition} AND r.lat IS NOT NULL AND r.lng IS NOT NULL
      GROUP BY r.fluxo`,
    params,
  );
  return rows
    .map(({ fluxo, uuids, coords, status }) => ({ fluxo, ids: compactIds(uuids), coords, status }))
    .sort((a, b) => (a.fluxo < b.fluxo ? -1 : a.fluxo > b.fluxo ? 1 : 0));
}

const BASE64URL = Buffer.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_', 'latin1');

/**
 * Concatenated uuid text (36 characters each) to concatenated 22-character base64url ids (CamadaCompacta.ids).
 * One pass over one buffer: a Buffer.toString per id costs half again as much at 100,000 ids.
 */
export function compactIds(uuids: string): string {
  const bytes = Buffer.from(uuids.replaceAll('-', ''), 'hex');
  const count = bytes.length / 16;
  const out = Buffer.allocUnsafe(22 * count);
  let o = 0;
  for (let i = 0; i < count; i += 1) {
    let p = 16 * i;
    // 15 bytes make 20 characters; the 16th byte makes the last two (its 8 bits, unpadded).
    for (let group = 0; group < 5; group += 1, p += 3) {
      const bits = ((bytes[p] ?? 0) << 16) | ((bytes[p + 1] ?? 0) << 8) | (bytes[p + 2] ?? 0);
      out[o] = BASE64URL[bits >> 18] ?? 0;
      out[o + 1] = BASE64URL[(bits >> 12) & 63] ?? 0;
      out[o + 2] = BASE64URL[(bits >> 6) & 63] ?? 0;
      out[o + 3] = BASE64URL[bits & 63] ?? 0;
      o += 4;
    }
    const last = bytes[p] ?? 0;
    out[o] = BASE64URL[last >> 2] ?? 0;
    out[o + 1] = BASE64URL[(last & 3) << 4] ?? 0;
    o += 2;
  }
  return out.toString('latin1');
}

/** Collected records per flow (the 'Estatística' panel). */
export async function estatistica(
  db: Queryable,
  filtro: MapaFiltro,
): Promise<{ _id: Fluxo; count: number }[]> {
  const params: unknown[] = [];
  const condition = where(filtro, params);
  return db.query(
    `SELECT r.fluxo AS "_id", count(*)::int AS count FROM registros r
     WHERE ${condition} AND r.coletado GROUP BY r.fluxo ORDER BY r.fluxo`,
    params,
  );
}

/** Technicians with records in the project, for the map's filter. */
export async function tecnicos(db: Queryable, projeto: string): Promise<{ id: string; nome: string }[]> {
  return db.query(
    `SELECT u.id, COALESCE(${userName('u')}, '') AS nome FROM usuarios u
     WHERE u.id IN (SELECT DISTINCT r.tecnico FROM registros r WHERE r.projeto = $1 AND r.tecnico IS NOT NULL)
     ORDER BY nome`,
    [projeto],
  );
}

export interface ProjetoMapa {
  id: string;
  nome: string;
  cliente: string;
  disponivel_interpres: boolean;
  zonas: { _id: string; label: string; poligono2: { coordinates: number[][][] } }[];
}

/** A project by id or name, with its zones. */
export async function findProjetoMapa(
  db: Queryable,
  key: string,
  byId: boolean,
): Promise<ProjetoMapa | undefined> {
  return (
    await db.query<ProjetoMapa>(
      `SELECT p.id, p.nome, p.cliente, p.disponivel_interpres,
         COALESCE((SELECT json_agg(json_build_object('_id', z.id, 'label', z.label, 'poligono2', z.poligono2)
           ORDER BY z.label) FROM zonas z WHERE z.projeto = p.id), '[]') AS zonas
       FROM projetos p WHERE ${byId ? 'p.id = $1' : 'lower(p.nome) = lower($1)'}`,
      [key],
    )
  )[0];
}
