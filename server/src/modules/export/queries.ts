// SQL of the exports: each file is one query projected in the database from the flow's declared columns (text
// fields, yes/no, list flags, UTM by ST_Transform to SIRGAS 2000 / UTM south), read in collection order.
import type { Coluna, Valor } from '@novus/domain/export/columns';
import { FUSO_HORARIO } from '@novus/domain/export/columns';
import type { Fluxo } from '@novus/domain/flows/keys';
import { FLOWS } from '@novus/domain/flows/registry';
import type { Queryable } from '../../db/database.ts';

/** Which records a file holds: a project's collected records of some flows, by day range and technician. */
export interface Filtro {
  projeto: string;
  fluxos: readonly Fluxo[];
  /** YYYY-MM-DD, days in FUSO_HORARIO, both inclusive. */
  dataInicio?: string;
  dataFim?: string;
  tecnico?: string;
}

/** A query and its parameters; `inline()` gives it with the parameters written in, for COPY. */
export interface Query {
  sql: string;
  params: unknown[];
}

/** SIRGAS 2000 / UTM zone {fuso}S: EPSG 31978 (18S) to 31985 (25S). */
export const sirgasUtmSouth = (fuso: number) => 31960 + fuso;

const NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/** A declared field name as a SQL literal: names come from the declarations, and are checked all the same. */
function fieldName(name: string): string {
  if (!NAME.test(name)) throw new Error(`Invalid field name in an export declaration: ${name}`);
  return `'${name}'`;
}

function textOf(valor: Valor, utm: string): string {
  // Empty text reads as NULL: PostgreSQL's COPY writes it unquoted then, as csv-stringify does on PGlite.
  if ('campo' in valor) return `NULLIF(r.dados->>${fieldName(valor.campo)}, '')`;
  if ('simNao' in valor) {
    return `(CASE r.dados->>${fieldName(valor.simNao)} WHEN 'true' THEN 'SIM' WHEN 'false' THEN 'NÃO' END)`;
  }
  if ('contem' in valor) {
    return `(CASE WHEN jsonb_exists(COALESCE(r.dados->${fieldName(valor.contem)}, '[]'), ${literal(valor.valor)})
      THEN 'SIM' ELSE 'NÃO' END)`;
  }
  if ('derivado' in valor) {
    return `(SELECT count(*) FROM registros d
      WHERE d.projeto = r.projeto AND d.fluxo = 'hc' AND d.dados->>'drop' = r.id::text)::text`;
  }
  switch (valor.registro) {
    case 'id':
      return 'r.id::text';
    case 'fluxo':
      return `(CASE r.fluxo ${FLOWS.map((flow) => `WHEN ${literal(flow.key)} THEN ${literal(flow.labels.menu)}`).join(' ')} END)`;
    case 'tecnico':
      return TECNICO_NOME;
    case 'dataHora':
      return `to_char(r.data_hora AT TIME ZONE '${FUSO_HORARIO}', 'DD/MM/YYYY HH24:MI:SS')`;
    case 'utmE':
      return `round(ST_X(${utm})::numeric, 2)::text`;
    case 'utmN':
      return `round(ST_Y(${utm})::numeric, 2)::text`;
    case 'fotos':
      return 'COALESCE(fc.n, 0)::text';
  }
}

/** The local day of a record. */
const DIA = `(r.data_hora AT TIME ZONE '${FUSO_HORARIO}')::date`;

const TECNICO_NOME = `NULLIF(trim(u.first_name || ' ' || u.last_name), '')`;

/** Values people typed go through novus_csv_safe (a formula becomes text); what the server computes does not. */
function typed(valor: Valor): boolean {
  return 'campo' in valor || ('registro' in valor && valor.registro === 'tecnico');
}

function literal(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

function where(filtro: Filtro, params: unknown[]): string {
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const conditions = [
    `r.projeto = ${param(filtro.projeto)}`,
    // One flow as an equality, so the planner can read the export index in order.
    filtro.fluxos.length === 1
      ? `r.fluxo = ${param(filtro.fluxos[0])}`
      : `r.fluxo = ANY(${param(filtro.fluxos)}::text[])`,
    'r.coletado',
    'r.conflito_de IS NULL',
  ];
  if (filtro.dataInicio) {
    conditions.push(
      `r.data_hora >= (${param(filtro.dataInicio)}::date::timestamp AT TIME ZONE '${FUSO_HORARIO}')`,
    );
  }
  if (filtro.dataFim) {
    conditions.push(
      `r.data_hora < ((${param(filtro.dataFim)}::date + 1)::timestamp AT TIME ZONE '${FUSO_HORARIO}')`,
    );
  }
  if (filtro.tecnico) conditions.push(`r.tecnico = ${param(filtro.tecnico)}`);
  return conditions.join(' AND ');
}

/**
 * One row per record with the columns under their headers (CSV), in collection order. With `safe`, typed text is
 * neutralised against spreadsheet formulas; `fuso` null leaves UTM columns empty (KML reads lat/lng instead).
 */
export function registrosQuery(
  colunas: readonly Coluna[],
  filtro: Filtro,
  options: { fuso: number | null; safe: boolean; extra?: readonly string[] },
): Query {
  const params: unknown[] = [];
  const utm = options.fuso === null ? 'NULL::geometry' : 'utm.geom';
  // Typed text is read once per row in a lateral (OFFSET 0 keeps it from being inlined): novus_csv_safe looks at
  // its argument three times, and inlined that would be three jsonb lookups.
  const raw: string[] = [];
  const columns = colunas.map((coluna) => {
    const text = textOf(coluna.valor, utm);
    const name = `"${coluna.header.replaceAll('"', '""')}"`;
    if (!options.safe || !typed(coluna.valor)) return `${text} AS ${name}`;
    raw.push(`${text} AS t${raw.length}`);
    return `novus_csv_safe(v.t${raw.length - 1}) AS ${name}`;
  });
  const values = raw.length > 0 ? `CROSS JOIN LATERAL (SELECT ${raw.join(', ')} OFFSET 0) v` : '';
  const condition = where(filtro, params);
  const transform =
    options.fuso === null
      ? ''
      : // OFFSET 0: transformed once per row, not once for ST_X and again for ST_Y.
        `CROSS JOIN LATERAL (SELECT ST_Transform(r.geom, ${sirgasUtmSouth(options.fuso)}) AS geom OFFSET 0) utm`;
  // Photo counts joined once for the project ($1: where() binds the project first) rather than counted per row:
  // a correlated count costs as much as the rest of the row.
  const fotos = colunas.some((coluna) => 'registro' in coluna.valor && coluna.valor.registro === 'fotos')
    ? `LEFT JOIN (SELECT f.registro, count(*) AS n FROM fotos f JOIN registros fr ON fr.id = f.registro
        WHERE fr.projeto = $1 GROUP BY f.registro) fc ON fc.registro = r.id`
    : '';
  return {
    sql: `SELECT ${[...(options.extra ?? []), ...columns].join(', ')}
      FROM registros r
      LEFT JOIN usuarios u ON u.id = r.tecnico
      ${fotos}
      ${transform}
      ${values}
      WHERE ${condition}
      ORDER BY r.data_hora, r.id`,
    params,
  };
}

/** What a KML placemark needs beyond its columns: where, which flow, its photos' slots. */
export const KML_EXTRA = [
  'r.id::text AS "_id"',
  'r.fluxo AS "_fluxo"',
  'r.lat AS "_lat"',
  'r.lng AS "_lng"',
  'COALESCE((SELECT array_agg(f.slot ORDER BY f.slot) FROM fotos f WHERE f.registro = r.id), \'{}\') AS "_fotos"',
] as const;

/** TECNICO;DATA;QUANTIDADE: records per technician per day (SPEC.md 9). */
export function producaoQuery(filtro: Filtro): Query {
  const params: unknown[] = [];
  const condition = where(filtro, params);
  const dia = `(r.data_hora AT TIME ZONE '${FUSO_HORARIO}')::date`;
  return {
    sql: `SELECT novus_csv_safe(${TECNICO_NOME}) AS "TECNICO", to_char(${dia}, 'DD/MM/YYYY') AS "DATA",
        count(*)::text AS "QUANTIDADE"
      FROM registros r
      LEFT JOIN usuarios u ON u.id = r.tecnico
      WHERE ${condition}
      GROUP BY r.tecnico, u.first_name, u.last_name, ${dia}
      ORDER BY ${dia}, 1`,
    params,
  };
}

/** The parameters written into the SQL (COPY binds none); every value here was validated as a uuid, date or flow. */
export function inline(query: Query): string {
  return query.sql.replace(/\$(\d+)/g, (_, index: string) => {
    const value = query.params[Number(index) - 1];
    if (Array.isArray(value)) return `ARRAY[${value.map((item) => literal(String(item))).join(', ')}]`;
    return literal(String(value));
  });
}

/** Photos of the filtered records, for the photo zip: which record, which flow, which slot, which bytes. */
export function fotosQuery(filtro: Filtro): Query {
  const params: unknown[] = [];
  const condition = where(filtro, params);
  return {
    sql: `SELECT r.id::text AS registro, r.fluxo, f.slot, f.hash, f.media_type
      FROM registros r JOIN fotos f ON f.registro = r.id
      WHERE ${condition}
      ORDER BY r.fluxo, r.data_hora, r.id, f.slot`,
    params,
  };
}

export interface Contagem {
  fluxo: Fluxo;
  tecnico: string | null;
  tecnico_nome: string | null;
  registros: number;
  /** Days on which this technician collected this flow. */
  dias: number;
  fotos: number;
}

/** Records and photos per flow and technician, for the Extrator's buttons. */
export async function contagens(db: Queryable, filtro: Filtro): Promise<Contagem[]> {
  const params: unknown[] = [];
  const condition = where(filtro, params);
  return db.query<Contagem>(
    `SELECT r.fluxo, r.tecnico, ${TECNICO_NOME} AS tecnico_nome, count(*)::int AS registros,
        count(DISTINCT ${DIA})::int AS dias,
        sum((SELECT count(*) FROM fotos f WHERE f.registro = r.id))::int AS fotos
      FROM registros r LEFT JOIN usuarios u ON u.id = r.tecnico
      WHERE ${condition}
      GROUP BY r.fluxo, r.tecnico, u.first_name, u.last_name
      ORDER BY r.fluxo, tecnico_nome`,
    params,
  );
}

/** The days (in FUSO_HORARIO) on which the project has collected records. */
export async function datas(
  db: Queryable,
  projeto: string,
): Promise<{ ano: number; mes: number; dia: number }[]> {
  return db.query(
    `SELECT DISTINCT extract(year FROM d)::int AS ano, extract(month FROM d)::int AS mes, extract(day FROM d)::int AS dia
     FROM (SELECT (data_hora AT TIME ZONE '${FUSO_HORARIO}')::date AS d FROM registros
       WHERE projeto = $1 AND coletado AND conflito_de IS NULL AND data_hora IS NOT NULL) dias
     ORDER BY ano, mes, dia`,
    [projeto],
  );
}

export interface ProjetoExport {
  id: string;
  nome: string;
  cliente: string;
  fuso: number | null;
  fluxos: Fluxo[];
  disponivel_interpres: boolean;
}

/** A project as the export routes name it: by id (a uuid) or by name (any case, SPEC.md 7 '{nome}'). */
export async function findProjetoExport(
  db: Queryable,
  key: string,
  byId: boolean,
): Promise<ProjetoExport | undefined> {
  return (
    await db.query<ProjetoExport>(
      `SELECT id, nome, cliente, fuso, fluxos, disponivel_interpres FROM projetos
       WHERE ${byId ? 'id = $1' : 'lower(nome) = lower($1)'}`,
      [key],
    )
  )[0];
}

export interface TecnicoDia {
  tecnico: string | null;
  tecnico_nome: string | null;
  /** YYYY-MM-DD */
  data: string;
  fluxo: Fluxo;
  registros: number;
}

export interface DiaResumo {
  tecnico: string | null;
  tecnico_nome: string | null;
  data: string;
  primeiro: Date;
  ultimo: Date;
  precisao_mediana: number | null;
  com_fotos: number;
  registros: number;
}

/** Records per technician, day and flow. */
export async function registrosPorTecnicoDia(db: Queryable, filtro: Filtro): Promise<TecnicoDia[]> {
  const params: unknown[] = [];
  const condition = where(filtro, params);
  return db.query<TecnicoDia>(
    `SELECT r.tecnico, ${TECNICO_NOME} AS tecnico_nome, to_char(${DIA}, 'YYYY-MM-DD') AS data, r.fluxo,
        count(*)::int AS registros
      FROM registros r LEFT JOIN usuarios u ON u.id = r.tecnico
      WHERE ${condition}
      GROUP BY r.tecnico, u.first_name, u.last_name, ${DIA}, r.fluxo
      ORDER BY data, tecnico_nome, r.fluxo`,
    params,
  );
}

/** Per technician and day: first and last record, median GPS accuracy, records holding a photo. */
export async function resumoPorTecnicoDia(db: Queryable, filtro: Filtro): Promise<DiaResumo[]> {
  const params: unknown[] = [];
  const condition = where(filtro, params);
  return db.query<DiaResumo>(
    `SELECT r.tecnico, ${TECNICO_NOME} AS tecnico_nome, to_char(${DIA}, 'YYYY-MM-DD') AS data,
        min(r.data_hora) AS primeiro, max(r.data_hora) AS ultimo,
        percentile_cont(0.5) WITHIN GROUP (ORDER BY (r.dados->>'precisao')::double precision) AS precisao_mediana,
        count(*) FILTER (WHERE EXISTS (SELECT 1 FROM fotos f WHERE f.registro = r.id))::int AS com_fotos,
        count(*)::int AS registros
      FROM registros r LEFT JOIN usuarios u ON u.id = r.tecnico
      WHERE ${condition}
      GROUP BY r.tecnico, u.first_name, u.last_name, ${DIA}
      ORDER BY data, tecnico_nome`,
    params,
  );
}
