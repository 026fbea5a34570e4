// SQL of the exports: each file is one query projected in the database from the flow's declared columns (text
// fields, yes/no, list flags, the UTM the record stores: migration 0006), read in collection order.
import type { Coluna, Valor } from '@novus/domain/export/columns';
import { SEPARADORES_DECIMAIS, type SeparadorDecimal } from '@novus/domain/export/decimal';
import { type FlagFiltro, SEPARADOR_SINALIZACOES } from '@novus/domain/export/revisao';
import type { Fluxo } from '@novus/domain/flows/keys';
import { FLOWS, flowOf } from '@novus/domain/flows/registry';
import {
  ESTADO_LABELS,
  ESTADOS_REVISAO,
  type EstadoRevisao,
  FLAG_CODIGOS,
  FLAG_LABELS,
  FLAG_UNIDADES,
} from '@novus/domain/revisao';
import type { Database, Queryable } from '../../db/database.ts';
import { fromLocalDay, localDay, localTime, untilLocalDay, userName } from '../../db/fragments.ts';

/** Which records a file holds: a project's collected records of some flows, by day range and technician. */
export interface Filtro {
  projeto: string;
  fluxos: readonly Fluxo[];
  /** YYYY-MM-DD, days in FUSO_HORARIO, both inclusive. */
  dataInicio?: string;
  dataFim?: string;
  tecnico?: string;
  /** The review (issue 24): one state; one flag by its code, any flag or none. */
  estado?: EstadoRevisao;
  flag?: FlagFiltro;
}

/** A query and its parameters; `inline()` gives it with the parameters written in, for COPY. */
export interface Query {
  sql: string;
  params: unknown[];
}

const NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/** A declared field name as a SQL literal: names come from the declarations, and are checked all the same. */
function fieldName(name: string): string {
  if (!NAME.test(name)) throw new Error(`Invalid field name in an export declaration: ${name}`);
  return `'${name}'`;
}

/**
 * A record's flags as people read them, in the order stored, each its label and what was measured (one decimal at
 * most, a comma: text, not a number column), as flagText in domain/src/export/revisao.ts writes them; NULL when none.
 */
const SINALIZACOES = `(CASE WHEN r.flags = '[]' THEN NULL ELSE (SELECT string_agg(
    (CASE f->>'codigo' ${FLAG_CODIGOS.map((codigo) => `WHEN ${literal(codigo)} THEN ${literal(FLAG_LABELS[codigo])}`).join(' ')} ELSE f->>'codigo' END)
    || CASE WHEN jsonb_typeof(f->'valor') = 'number' THEN ' (' || replace(trim_scale(round((f->>'valor')::numeric, 1))::text, '.', ',')
      || (CASE f->>'codigo' ${FLAG_CODIGOS.filter((codigo) => FLAG_UNIDADES[codigo] !== '')
        .map((codigo) => `WHEN ${literal(codigo)} THEN ${literal(` ${FLAG_UNIDADES[codigo]}`)}`)
        .join(' ')} ELSE '' END) || ')' ELSE '' END,
    ${literal(SEPARADOR_SINALIZACOES)} ORDER BY e.n) FROM jsonb_array_elements(r.flags) WITH ORDINALITY AS e (f, n)) END)`;

function textOf(valor: Valor): string {
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
      return 't.nome';
    case 'dataHora':
      return `to_char(${localTime('r.data_hora')}, 'DD/MM/YYYY HH24:MI:SS')`;
    case 'utmE':
      return 'r.utm_e::text';
    case 'utmN':
      return 'r.utm_n::text';
    case 'fotos':
      return 'cardinality(r.fotos_slots)::text';
    case 'revisao':
      return `(CASE r.revisao ${ESTADOS_REVISAO.map((estado) => `WHEN ${literal(estado)} THEN ${literal(ESTADO_LABELS[estado])}`).join(' ')} END)`;
    case 'versao':
      return 'r.versao::text';
    case 'sinalizacoes':
      return SINALIZACOES;
  }
}

/** The local day of a record. */
const DIA = localDay('r.data_hora');

const TECNICO_NOME = userName('u');

/**
 * The technician's name as `t.nome`, through `guard`: a lateral subquery fenced by OFFSET 0, so the planner keeps
 * it apart and caches its answer per technician (Memoize) instead of building and guarding the name on every row.
 */
function tecnicoJoin(guard: string): string {
  return `LEFT JOIN LATERAL (SELECT ${guard}(${TECNICO_NOME}) AS nome FROM usuarios u WHERE u.id = r.tecnico OFFSET 0) t
      ON true`;
}

/**
 * A decimal column's text with the separator asked for. The stored UTM (numeric(12, 2)) always is a plain decimal
 * with a point. A field is changed only when it is a plain decimal ('4.5', '-0.25', or '4,5' as a Brazilian keyboard
 * types a correction), so that '10 m' or an id like '1.2.3' stay as typed.
 */
function comSeparador(valor: Valor, text: string, separador: SeparadorDecimal): string {
  const sinal = SEPARADORES_DECIMAIS[separador];
  if ('registro' in valor && (valor.registro === 'utmE' || valor.registro === 'utmN')) {
    return sinal === '.' ? text : `replace(${text}, '.', ${literal(sinal)})`;
  }
  // A match then translate, not regexp_replace: about seven times cheaper a value on PostgreSQL 15 (1M values:
  // ≈ 2 s against ≈ 14 s, 2026-11-25), and the digits-only test before it spares the pattern for integers and text.
  return `CASE WHEN ltrim(translate(${text}, '0123456789', ''), '-') IN ('.', ',')
      AND ${text} ~ '^-?[0-9]+[.,][0-9]+$' THEN translate(${text}, '.,', ${literal(sinal + sinal)}) ELSE ${text} END`;
}

/** Values people typed go through novus_csv_safe (a formula becomes text); what the server computes does not. */
function typed(valor: Valor): boolean {
  return 'campo' in valor || ('registro' in valor && valor.registro === 'tecnico');
}

/**
 * A typed value through `guard` (novus_csv_safe, novus_xml). A field of dados only on the records whose flag says
 * one of their values needs it (migration 0006): the guard reads its argument several times once inlined, and
 * every read of a field is a jsonb lookup. The technician's name is guarded in tecnicoJoin.
 */
function careful(valor: Valor, text: string, guard: (text: string) => string, flag: string): string {
  if ('campo' in valor) return `(CASE WHEN ${flag} THEN ${guard(text)} ELSE ${text} END)`;
  return text;
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
  if (filtro.dataInicio) conditions.push(fromLocalDay('r.data_hora', param(filtro.dataInicio)));
  if (filtro.dataFim) conditions.push(untilLocalDay('r.data_hora', param(filtro.dataFim)));
  if (filtro.tecnico) conditions.push(`r.tecnico = ${param(filtro.tecnico)}`);
  if (filtro.estado) conditions.push(`r.revisao = ${param(filtro.estado)}`);
  if (filtro.flag === 'qualquer') conditions.push(`r.flags <> '[]'`);
  else if (filtro.flag === 'nenhuma') conditions.push(`r.flags = '[]'`);
  else if (filtro.flag) {
    // With `<> '[]'` the planner may use the flags' partial GIN index (migration 0013).
    conditions.push(
      `r.flags <> '[]'`,
      `r.flags @> ${param(JSON.stringify([{ codigo: filtro.flag }]))}::jsonb`,
    );
  }
  return conditions.join(' AND ');
}

/** A record's place in collection order: `data_hora` as text (to the microsecond) and `id`. */
export interface Chave {
  data_hora: string;
  id: string;
}

/**
 * The same rows in parts, in collection order, so that PostgreSQL can write one part while Node sends the one
 * before (csvStream): the dated rows after a key (from the first when none) up to the next, then the undated rows,
 * which sort last. `fim(n, depois)` is the key of the n-th row after `depois`, the end of a part (none when fewer
 * remain): it walks the export index alone (migration 0005), n keys, while the part before is being read. Only for
 * one flow, whose rows that index holds in collection order.
 */
export interface Partes {
  fim(n: number, depois?: Chave): Query;
  entre(depois?: Chave, ate?: Chave): Query;
  semData(): Query;
}

/** The names of a row's longitude and latitude when `registrosQuery` is asked for them. */
export const POSICAO = { lng: 'novus_lng', lat: 'novus_lat' } as const;

/**
 * One row per record with the columns under their headers (CSV), in collection order, typed text neutralised
 * against spreadsheet formulas, decimals with the separator asked for. UTM columns are what the record stores in
 * its project's fuso: empty when the project has none (the CSV routes refuse then; KML places by lat/lng).
 */
export function registrosQuery(
  colunas: readonly Coluna[],
  filtro: Filtro,
  separador: SeparadorDecimal = 'virgula',
  { posicao = false }: { posicao?: boolean } = {},
): Query & { partes?: Partes } {
  const columns = colunas.map((coluna) => {
    const text = coluna.decimal
      ? comSeparador(coluna.valor, textOf(coluna.valor), separador)
      : textOf(coluna.valor);
    const name = `"${coluna.header.replaceAll('"', '""')}"`;
    if (!typed(coluna.valor)) return `${text} AS ${name}`;
    return `${careful(coluna.valor, text, (value) => `novus_csv_safe(${value})`, 'r.texto_formula')} AS ${name}`;
  });
  // The point of each row for a GeoPackage, after the CSV's columns (whose headers are upper case or accented).
  if (posicao) columns.push(`r.lng AS ${POSICAO.lng}`, `r.lat AS ${POSICAO.lat}`);
  /** The query with more conditions, each given the parameter list to add its values to. */
  const select = (...more: ((params: unknown[]) => string)[]): Query => {
    const params: unknown[] = [];
    const conditions = [where(filtro, params), ...more.map((condition) => condition(params))];
    return {
      sql: `SELECT ${columns.join(', ')}
      FROM registros r
      ${tecnicoJoin('novus_csv_safe')}
      WHERE ${conditions.join(' AND ')}
      ORDER BY r.data_hora, r.id`,
      params,
    };
  };
  return { ...select(), partes: partesOf(filtro, select) };
}

/**
 * A query's parts (Partes), from the query with more conditions (`select`) and the export's filter; none for
 * several flows. The ends count every row of the filter, so a query that drops some (the KML's unplaced) gives
 * parts of at most n rows.
 */
function partesOf(
  filtro: Filtro,
  select: (...more: ((params: unknown[]) => string)[]) => Query,
): Partes | undefined {
  if (filtro.fluxos.length !== 1) return undefined;
  const key = (chave: Chave) => (params: unknown[]) => {
    params.push(chave.data_hora, chave.id);
    return `($${params.length - 1}::timestamptz, $${params.length}::uuid)`;
  };
  const dated = () => 'r.data_hora IS NOT NULL';
  return {
    fim(n, depois) {
      const params: unknown[] = [];
      const after = depois ? ` AND (r.data_hora, r.id) > ${key(depois)(params)}` : '';
      return {
        sql: `SELECT r.data_hora::text AS data_hora, r.id::text AS id FROM registros r
          WHERE ${where(filtro, params)} AND r.data_hora IS NOT NULL${after}
          ORDER BY r.data_hora, r.id OFFSET ${Math.trunc(n) - 1} LIMIT 1`,
        params,
      };
    },
    entre(depois, ate) {
      const after = depois && ((params: unknown[]) => `(r.data_hora, r.id) > ${key(depois)(params)}`);
      const until = ate && ((params: unknown[]) => `(r.data_hora, r.id) <= ${key(ate)(params)}`);
      return select(dated, ...[after, until].filter((condition) => condition !== undefined));
    },
    semData: () => select(() => 'r.data_hora IS NULL'),
  };
}

/** Only records with a position are placemarks. */
const PLACED = 'r.lat IS NOT NULL AND r.lng IS NOT NULL';

/** A KML layer's placemarks: one line of XML per record, written by the database (`novus_xml` escapes). */
export interface KmlQuery {
  /** How the placemark is named: a column of the flow, else the record id. */
  nome: Valor;
  /** The id of the document's `<Style>` for this layer. */
  estilo: string;
  /** The id of the document's `<Schema>` of this layer's columns. */
  esquema: string;
  /** Where the photo links point: the KML is opened outside the browser. */
  origin: string;
}

/**
 * One row (`placemark`) per located record, in collection order: its name, its photos as links, its style, the
 * declared columns as ExtendedData and its point. Built in SQL so that PostgreSQL's COPY writes the KML's body as
 * it writes a CSV, and Node only passes bytes on. The columns are the layer's `<Schema>` (kmlStream declares it), a
 * `<SimpleData>` for each filled value: an empty one is left out, as GDAL writes a null, and GIS still lists the
 * column from the schema (a quarter of a unit's bytes were empty `<Data>` elements).
 */
export function placemarksQuery(
  colunas: readonly Coluna[],
  filtro: Filtro,
  kml: KmlQuery,
): Query & { partes?: Partes } {
  const xml = (valor: Valor) =>
    typed(valor)
      ? careful(valor, textOf(valor), (value) => `NULLIF(novus_xml(${value}), '')`, 'r.texto_xml')
      : textOf(valor);
  // An empty value is NULL (textOf reads '' as NULL, and a value novus_xml empties, of control characters only, is
  // made NULL too) and makes the whole element NULL, which concat() leaves out.
  const data = colunas.map(
    (coluna) =>
      `${literal(`<SimpleData name="${escapeXml(coluna.header)}">`)} || ${xml(coluna.valor)} || '</SimpleData>'`,
  );
  // The technician's name is joined only for a layer that shows it: the join costs every row.
  const comTecnico = [kml.nome, ...colunas.map((coluna) => coluna.valor)].some(
    (valor) => 'registro' in valor && valor.registro === 'tecnico',
  );
  const [fluxo] = filtro.fluxos;
  const fotos = fotosDescription(kml.origin, fluxo ? flowOf(fluxo).photoSlots : 0);
  const select = (...more: ((params: unknown[]) => string)[]): Query => {
    const params: unknown[] = [];
    const conditions = [where(filtro, params), ...more.map((condition) => condition(params))];
    const parts = [
      `'<Placemark><name>'`,
      `COALESCE(${xml(kml.nome)}, r.id::text)`,
      `'</name>'`,
      fotos,
      literal(`<styleUrl>#${kml.estilo}</styleUrl><ExtendedData><SchemaData schemaUrl="#${kml.esquema}">`),
      ...data,
      `'</SchemaData></ExtendedData><Point><coordinates>'`,
      `r.lng::text || ',' || r.lat::text`,
      `'</coordinates></Point></Placemark>'`,
    ];
    return {
      sql: `SELECT ${concat(parts)} AS placemark
        FROM registros r
        ${comTecnico ? tecnicoJoin('novus_xml') : ''}
        WHERE ${conditions.join(' AND ')} AND ${PLACED}
        ORDER BY r.data_hora, r.id`,
      params,
    };
  };
  return { ...select(), partes: partesOf(filtro, select) };
}

/**
 * The photo links, as HTML in the description (escaped once more as XML text): `<a href="…/api/fotos/{id}/{slot}">Foto
 * n</a>`, joined by `<br/>`. One concat of a link per slot the record holds, up to the flow's `slots` (an upload
 * stores no more): the ordered aggregate it replaces (unnest, string_agg … ORDER BY) started a sort on every row and
 * made a KML of units with three photos 12 times slower to write (1 M placemarks, one backend: 58 s against 4.8 s).
 */
function fotosDescription(origin: string, slots: number): string {
  const link = (n: number) =>
    `${literal(`&lt;a href="${escapeXml(origin)}/api/fotos/`)}, r.id, '/', r.fotos_slots[${n}], ${literal(`"&gt;Foto ${n}&lt;/a&gt;`)}`;
  const links = Array.from({ length: slots }, (_, index) =>
    index === 0
      ? link(1)
      : `CASE WHEN cardinality(r.fotos_slots) > ${index} THEN concat('&lt;br/&gt;', ${link(index + 1)}) END`,
  );
  if (slots === 0) return 'NULL';
  return `CASE WHEN cardinality(r.fotos_slots) > 0 THEN concat('<description>', ${links.join(', ')}, '</description>') END`;
}

/** concat() of any number of parts (a NULL part adds nothing): nested, as a function takes at most 100 arguments. */
function concat(parts: readonly string[]): string {
  if (parts.length <= 90) return `concat(${parts.join(', ')})`;
  const groups: string[] = [];
  for (let index = 0; index < parts.length; index += 90) groups.push(concat(parts.slice(index, index + 90)));
  return concat(groups);
}

/** Text in XML (document and layer names, headers): what `novus_xml` does in SQL. */
export function escapeXml(value: unknown): string {
  return (
    String(value ?? '')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/\n/g, '&#10;')
      .replace(/\r/g, '&#13;')
  );
}

/** TECNICO;DATA;QUANTIDADE: records per technician per day (SPEC.md 9). */
export function producaoQuery(filtro: Filtro): Query {
  const params: unknown[] = [];
  const condition = where(filtro, params);
  return {
    sql: `SELECT novus_csv_safe(${TECNICO_NOME}) AS "TECNICO", to_char(${DIA}, 'DD/MM/YYYY') AS "DATA",
        count(*)::text AS "QUANTIDADE"
      FROM registros r
      LEFT JOIN usuarios u ON u.id = r.tecnico
      WHERE ${condition}
      GROUP BY r.tecnico, u.first_name, u.last_name, ${DIA}
      ORDER BY ${DIA}, 1`,
    params,
  };
}

/** The parameters written into the SQL (COPY binds none); every value here was validated as a uuid, date, flow, review state or flag. */
export function inline(query: Query): string {
  return query.sql.replace(/\$(\d+)/g, (_, index: string) => {
    const value = query.params[Number(index) - 1];
    if (Array.isArray(value)) return `ARRAY[${value.map((item) => literal(String(item))).join(', ')}]`;
    return literal(String(value));
  });
}

export interface FotoExport {
  registro: string;
  fluxo: Fluxo;
  slot: number;
  hash: string;
  media_type: string;
}

/** Photos of the filtered records, for the photo zip: which record, which flow, which slot, which bytes; in batches. */
export function streamFotos(db: Database, filtro: Filtro): AsyncGenerator<FotoExport[]> {
  const params: unknown[] = [];
  const condition = where(filtro, params);
  return db.stream<FotoExport>(
    `SELECT r.id::text AS registro, r.fluxo, f.slot, f.hash, f.media_type
      FROM registros r JOIN fotos f ON f.registro = r.id
      WHERE ${condition}
      ORDER BY r.fluxo, r.data_hora, r.id, f.slot`,
    params,
  );
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
     FROM (SELECT ${localDay('data_hora')} AS d FROM registros
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
