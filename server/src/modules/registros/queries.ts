// SQL for the records of every flow (collected or preloaded), their competing collections and their photo rows.
import type { Fluxo } from '@novus/domain/flows/keys';
import type { Flag } from '@novus/domain/revisao';
import type { Queryable } from '../../db/database.ts';
import { fromLocalDay, untilLocalDay, userName } from '../../db/fragments.ts';
import { comExif, type FlagsOf, flagsSql, type Qualidade, qualidadeParams } from '../revisao/flags.ts';
import type { PhotoExif } from '../../storage/photo-exif.ts';

export interface NewRegistro {
  id: string;
  fluxo: string;
  projeto: string;
  tecnico: string;
  lat: number;
  lng: number;
  dataHora: number;
  /** The collection this row holds: the id the device made when the technician saved it. */
  coleta: string;
  /** Set when this row is a competing collection of that point rather than a record of its own. */
  conflitoDe?: string;
  dados: Record<string, unknown>;
  /** What the quality flags need (issue 24); null: no flags computed (SINALIZACOES=0). */
  qualidade: Qualidade | null;
}

export interface NewFoto {
  slot: number;
  hash: string;
  size: number;
  mediaType: string;
  /** The photo's EXIF time and position, read when its bytes came with this upload. */
  exif?: PhotoExif;
  /** The SHA-256 of the camera's original, when the device sent a compressed and stamped copy (issue 26). */
  original?: string;
}

export interface RegistroRow {
  id: string;
  /** Written only by the flows' routes, so always a key of the registry. */
  fluxo: Fluxo;
  projeto: string;
  projeto_nome: string;
  cliente: string;
  zona: string | null;
  tecnico: string | null;
  tecnico_nome: string | null;
  lat: number | null;
  lng: number | null;
  data_hora: Date | null;
  sincronizado_em: Date | null;
  coletado: boolean;
  adicionado_app: boolean;
  carregado_backoffice: boolean;
  conflito_de: string | null;
  dados: Record<string, unknown>;
  fotos: number[];
  /** Issue 24: the revision, the review state and the automatic flags. */
  versao: number;
  revisao: 'pendente' | 'aprovado' | 'reprovado';
  flags: Flag[];
  disponivel_interpres: boolean;
}

/** A record as the app reads it, from `source` (a table or a CTE) called r, its photos' slots from `slots`. */
const selectRegistro = (source: string, slots: string) => `SELECT r.id, r.fluxo, r.projeto,
    p.nome AS projeto_nome, p.cliente, r.zona, r.tecnico, ${userName('u')} AS tecnico_nome,
    r.lat, r.lng, r.data_hora, r.sincronizado_em, r.coletado, r.adicionado_app, r.carregado_backoffice,
    r.conflito_de, r.dados, COALESCE((SELECT array_agg(f.slot ORDER BY f.slot) FROM ${slots}), '{}') AS fotos,
    r.versao, r.revisao, r.flags, p.disponivel_interpres
  FROM ${source} r
  JOIN projetos p ON p.id = r.projeto
  LEFT JOIN usuarios u ON u.id = r.tecnico`;

const SELECT = selectRegistro('registros', 'fotos f WHERE f.registro = r.id');

/** The zone of the project containing the point, or NULL; arguments are SQL expressions (parameters, columns). */
const zonaOf = (projeto: string, lat: string, lng: string) =>
  `(SELECT z.id FROM zonas z
    WHERE z.projeto = ${projeto} AND ST_Intersects(z.geom, ST_SetSRID(ST_MakePoint(${lng}, ${lat}), 4326))
    ORDER BY z.id LIMIT 1)`;

/** The flags of the record a statement writes: its parameters as INSERT_REGISTRO numbers them. */
const flagsOfInsert = (exif: boolean): FlagsOf => ({
  id: '$1',
  fluxo: '$2',
  projeto: '$3',
  tecnico: '$4',
  lat: '$5',
  lng: '$6',
  dataHora: '$7',
  first: QUALIDADE_FIRST,
  exif,
});

/** Parameters past INSERT_REGISTRO's ten: the quality ones when flags are computed ($11–$13, $14 the EXIF). */
const QUALIDADE_FIRST = 11;

/** Which flags a statement computes: none (SINALIZACOES=0), all but the EXIF rules, all. */
type Variante = 'sem_flags' | 'flags' | 'flags_exif';

const varianteOf = (registro: NewRegistro): Variante =>
  !registro.qualidade ? 'sem_flags' : comExif(registro.qualidade) ? 'flags_exif' : 'flags';

/**
 * Inserting a collected record ($1–$10 as registroParams, then the flags' as qualidadeParams), nothing when its id
 * is stored; RETURNING is the caller's.
 */
const insertRegistroSql = (
  variante: Variante,
) => `INSERT INTO registros (id, fluxo, projeto, zona, tecnico, lat, lng,
       geom, data_hora, sincronizado_em, coletado, adicionado_app, carregado_backoffice, coleta, conflito_de, dados,
       flags)
     SELECT $1, $2, $3, ${zonaOf('$3', '$5', '$6')},
       $4, $5, $6, ST_SetSRID(ST_MakePoint($6, $5), 4326), to_timestamp($7::double precision / 1000), now(),
       true, true, false, $8, $9, $10,
       ${variante === 'sem_flags' ? "'[]'::jsonb" : flagsSql(flagsOfInsert(variante === 'flags_exif'))}
     ON CONFLICT (id) DO NOTHING`;

const INSERT_REGISTRO: Record<Variante, string> = {
  sem_flags: insertRegistroSql('sem_flags'),
  flags: insertRegistroSql('flags'),
  flags_exif: insertRegistroSql('flags_exif'),
};

const registroParams = (registro: NewRegistro) => [
  registro.id,
  registro.fluxo,
  registro.projeto,
  registro.tecnico,
  registro.lat,
  registro.lng,
  registro.dataHora,
  registro.coleta,
  registro.conflitoDe ?? null,
  registro.dados,
  ...(registro.qualidade ? qualidadeParams(registro.qualidade) : []),
];

const insertSql = (registro: NewRegistro) => INSERT_REGISTRO[varianteOf(registro)];

/** The prepared statement's name of a variant of the upload's insert (Queryable.query: one name, one text). */
const statementName = (what: string, registro: NewRegistro) => `novus_${what}_${varianteOf(registro)}`;

/**
 * Writes a record collected in the field, or does nothing when that id is already stored (another request
 * holds it). Returns whether this call created it.
 */
export async function insertRegistro(tx: Queryable, registro: NewRegistro): Promise<boolean> {
  const rows = await tx.query(
    `${insertSql(registro)} RETURNING id`,
    registroParams(registro),
    statementName('insert_registro', registro),
  );
  return rows.length > 0;
}

/**
 * A new record and its photo rows in one statement (atomic without a transaction around it), answering the row
 * as getRegistro reads it; undefined, and nothing written, when the id is already stored. The upload's usual
 * case in one round trip (issue 22).
 */
export async function insertRegistroComFotos(
  db: Queryable,
  registro: NewRegistro,
  fotos: NewFoto[],
): Promise<RegistroRow | undefined> {
  const params = registroParams(registro);
  const rows = await db.query<RegistroRow>(
    `WITH r AS (${insertSql(registro)} RETURNING *),
     f AS (
       INSERT INTO fotos (registro, slot, hash, size, media_type, sha256_original)
       SELECT r.id, f.slot, f.hash, f.size, f."mediaType", f.original
       FROM r, jsonb_to_recordset($${params.length + 1}::jsonb)
         AS f(slot smallint, hash text, size integer, "mediaType" text, original text)
       RETURNING slot
     )
     ${selectRegistro('r', 'f')}`,
    [...params, JSON.stringify(fotos.map(({ exif: _exif, ...foto }) => foto))],
    // Planned once per connection: the flags' expression alone costs about a millisecond to plan.
    statementName('insert_registro_com_fotos', registro),
  );
  return rows[0];
}

/** What deciding an upload needs to know of a stored row. */
export interface StoredRegistro {
  id: string;
  fluxo: string;
  projeto: string;
  tecnico: string | null;
  lat: number | null;
  lng: number | null;
  coletado: boolean;
  coleta: string | null;
  conflito_de: string | null;
  versao: number;
}

/** Reads a row and locks it until the transaction ends, so two uploads of one point are decided one by one. */
export async function lockRegistro(tx: Queryable, id: string): Promise<StoredRegistro | undefined> {
  return (
    await tx.query<StoredRegistro>(
      `SELECT id, fluxo, projeto, tecnico, lat, lng, coletado, coleta, conflito_de, versao
       FROM registros WHERE id = $1 FOR UPDATE`,
      [id],
    )
  )[0];
}

export interface Coleta {
  tecnico: string;
  lat: number;
  lng: number;
  dataHora: number;
  coleta: string;
  /** Fields the collection sets; merged over the stored ones, so a preloaded value stays unless sent. */
  dados: Record<string, unknown>;
  /** Fields the upload did not name: they fill only what the stored point does not have. */
  defaults: Record<string, unknown>;
}

/**
 * The flags an UPDATE of `registros` (by id = $1, eight parameters, then the quality ones from $9) sets, or none
 * when they are not computed.
 */
function updateFlags(
  qualidade: Qualidade | null,
  of: Pick<FlagsOf, 'tecnico' | 'lat' | 'lng' | 'dataHora'>,
): string {
  if (!qualidade) return "'[]'::jsonb";
  return flagsSql({
    ...of,
    id: '$1',
    fluxo: 'registros.fluxo',
    projeto: 'registros.projeto',
    first: 9,
    exif: comExif(qualidade),
  });
}

/** Makes a preloaded point collected: who, when, where it really is, the collected fields, and its flags. */
export async function collectPonto(
  tx: Queryable,
  id: string,
  coleta: Coleta,
  qualidade: Qualidade | null,
): Promise<void> {
  const flags = updateFlags(qualidade, { tecnico: '$2', lat: '$3', lng: '$4', dataHora: '$5' });
  await tx.query(
    `UPDATE registros SET tecnico = $2, lat = $3, lng = $4, geom = ST_SetSRID(ST_MakePoint($4, $3), 4326),
       zona = ${zonaOf('registros.projeto', '$3', '$4')},
       data_hora = to_timestamp($5::double precision / 1000), sincronizado_em = now(), coletado = true,
       coleta = $6, dados = $8::jsonb || dados || $7::jsonb, flags = ${flags}
     WHERE id = $1`,
    [
      id,
      coleta.tecnico,
      coleta.lat,
      coleta.lng,
      coleta.dataHora,
      coleta.coleta,
      coleta.dados,
      coleta.defaults,
      ...(qualidade ? qualidadeParams(qualidade) : []),
    ],
  );
}

/**
 * A new revision of a record (issue 24: a rejected record corrected on the phone): the current one is kept in
 * registro_versoes with its photo rows, the row takes the new values, photos and flags, and goes back to
 * 'pendente'. The caller holds the row's lock and checked `versao` is the stored one + 1.
 */
export async function reviseRegistro(
  tx: Queryable,
  revisao: {
    id: string;
    versao: number;
    tecnico: string;
    lat: number;
    lng: number;
    dataHora: number;
    coleta: string;
    /** The fields as the correction sends them, over the stored ones (a preloaded point keeps its originals). */
    dados: Record<string, unknown>;
    fotos: NewFoto[];
    qualidade: Qualidade | null;
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO registro_versoes (registro, versao, tecnico, lat, lng, data_hora, sincronizado_em, dados, flags, fotos)
     SELECT r.id, r.versao, r.tecnico, r.lat, r.lng, r.data_hora, r.sincronizado_em, r.dados, r.flags,
       COALESCE((SELECT jsonb_agg(jsonb_build_object('slot', f.slot, 'hash', f.hash, 'size', f.size,
                                                     'mediaType', f.media_type) ORDER BY f.slot)
                 FROM fotos f WHERE f.registro = r.id), '[]')
     FROM registros r WHERE r.id = $1
     ON CONFLICT (registro, versao) DO NOTHING`,
    [revisao.id],
  );
  await tx.query('DELETE FROM fotos WHERE registro = $1', [revisao.id]);
  const flags = updateFlags(revisao.qualidade, { tecnico: '$3', lat: '$4', lng: '$5', dataHora: '$6' });
  await tx.query(
    `UPDATE registros SET versao = $2, tecnico = $3, lat = $4, lng = $5,
       geom = ST_SetSRID(ST_MakePoint($5, $4), 4326), zona = ${zonaOf('registros.projeto', '$4', '$5')},
       data_hora = to_timestamp($6::double precision / 1000), sincronizado_em = now(), coleta = $7,
       dados = dados || $8::jsonb, flags = ${flags},
       revisao = 'pendente', revisao_comentario = NULL, revisao_campos = '{}', revisado_por = NULL, revisado_em = NULL
     WHERE id = $1`,
    [
      revisao.id,
      revisao.versao,
      revisao.tecnico,
      revisao.lat,
      revisao.lng,
      revisao.dataHora,
      revisao.coleta,
      revisao.dados,
      ...(revisao.qualidade ? qualidadeParams(revisao.qualidade) : []),
    ],
  );
  await insertFotos(tx, revisao.id, revisao.fotos);
  await tx.query(
    `INSERT INTO revisoes (registro, versao, estado, comentario, usuario)
     VALUES ($1, $2, 'pendente', $3, $4)`,
    [
      revisao.id,
      revisao.versao,
      `Correção enviada pelo técnico (versão ${revisao.versao}).`,
      revisao.tecnico,
    ],
  );
}

/**
 * Locks the project for the rest of the transaction, so uploads that number its records (BDGD's and IP's sequencial)
 * take turns. NO KEY UPDATE, not UPDATE: inserts of other records still take their foreign-key lock on it.
 */
export async function lockProjeto(tx: Queryable, projeto: string): Promise<void> {
  await tx.query('SELECT id FROM projetos WHERE id = $1 FOR NO KEY UPDATE', [projeto]);
}

/**
 * The largest `sequencial` of the flow `$2`'s points in the project `$1` (0 when none), as a scalar subquery: what a
 * numbered flow's next point (BDGD, IP) counts from (SPEC.md 9 'BDGD sequential = max existing + 1').
 */
export const SEQUENCIAL_MAX = `(SELECT COALESCE(max(CASE WHEN jsonb_typeof(s.dados->'sequencial') = 'number'
                                    THEN (s.dados->>'sequencial')::numeric END), 0)::int
   FROM registros s WHERE s.projeto = $1 AND s.fluxo = $2 AND s.conflito_de IS NULL)`;

/** The next `sequencial` of a flow's points in a project: the largest one stored plus one. */
export async function nextSequencial(tx: Queryable, projeto: string, fluxo: string): Promise<number> {
  const rows = await tx.query<{ next: number }>(`SELECT ${SEQUENCIAL_MAX} + 1 AS next`, [projeto, fluxo]);
  return rows[0]?.next ?? 1;
}

export async function insertFotos(tx: Queryable, registro: string, fotos: NewFoto[]): Promise<void> {
  if (fotos.length === 0) return;
  await tx.query(
    `INSERT INTO fotos (registro, slot, hash, size, media_type, sha256_original)
     SELECT $1, f.slot, f.hash, f.size, f."mediaType", f.original
     FROM jsonb_to_recordset($2::jsonb) AS f(slot smallint, hash text, size integer, "mediaType" text, original text)
     ON CONFLICT (registro, slot) DO NOTHING`,
    [registro, JSON.stringify(fotos.map(({ exif: _exif, ...foto }) => foto))],
  );
}

/** The photo hashes among these that some record refers to: a photo row, or an earlier revision's (issue 24). */
export async function referencedHashes(db: Queryable, hashes: string[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const rows = await db.query<{ hash: string }>(
    'SELECT DISTINCT hash FROM fotos WHERE hash = ANY($1::text[])',
    [hashes],
  );
  const referenced = new Set(rows.map((row) => row.hash));
  // Revisions are asked only about the rest, usually few: no index reaches into their jsonb.
  const rest = hashes.filter((hash) => !referenced.has(hash));
  if (rest.length === 0) return referenced;
  const revised = await db.query<{ hash: string }>(
    `SELECT DISTINCT f->>'hash' AS hash FROM registro_versoes v, jsonb_array_elements(v.fotos) f
     WHERE f->>'hash' = ANY($1::text[])`,
    [rest],
  );
  for (const row of revised) referenced.add(row.hash);
  return referenced;
}

/** What records refer to: the hashes of photo rows and of earlier revisions' photos, `limit` after `after` in order. */
export async function referencedHashesAfter(db: Queryable, after: string, limit: number): Promise<string[]> {
  const rows = await db.query<{ hash: string }>(
    `SELECT hash FROM (
       (SELECT DISTINCT hash FROM fotos WHERE hash > $1 ORDER BY hash LIMIT $2)
       UNION
       (SELECT DISTINCT f->>'hash' FROM registro_versoes v, jsonb_array_elements(v.fotos) f
        WHERE f->>'hash' > $1 ORDER BY 1 LIMIT $2)
     ) h ORDER BY hash LIMIT $2`,
    [after, limit],
  );
  return rows.map((row) => row.hash);
}

/** How many different photos records refer to (referencedHashesAfter's whole list). */
export async function countReferencedHashes(db: Queryable): Promise<number> {
  const rows = await db.query<{ n: number | string }>(
    `SELECT count(*) AS n FROM (
       SELECT hash FROM fotos
       UNION
       SELECT f->>'hash' FROM registro_versoes v, jsonb_array_elements(v.fotos) f
     ) h`,
  );
  return Number(rows[0]?.n ?? 0);
}

/** A record's photo slot that holds a photo: of its current revision (`versao` null) or of an earlier one. */
export interface FotoDeRegistro {
  hash: string;
  registro: string;
  fluxo: string;
  projeto: string;
  slot: number;
  versao: number | null;
}

/** The records' photo slots, current and of earlier revisions, that hold one of these photos. */
export async function fotosDeRegistros(db: Queryable, hashes: string[]): Promise<FotoDeRegistro[]> {
  if (hashes.length === 0) return [];
  return db.query<FotoDeRegistro>(
    `SELECT f.hash, r.id AS registro, r.fluxo, r.projeto, f.slot::int AS slot, NULL::int AS versao
     FROM fotos f JOIN registros r ON r.id = f.registro WHERE f.hash = ANY($1::text[])
     UNION ALL
     SELECT f.hash, r.id, r.fluxo, r.projeto, f.slot, v.versao
     FROM registro_versoes v JOIN registros r ON r.id = v.registro,
       jsonb_to_recordset(v.fotos) AS f(slot int, hash text)
     WHERE f.hash = ANY($1::text[])
     ORDER BY registro, versao NULLS LAST, slot`,
    [hashes],
  );
}

/** One stored photo row of each of these hashes: the bytes' size and media type, the same for every row of a hash. */
export async function findFotos(
  db: Queryable,
  hashes: readonly string[],
): Promise<{ hash: string; size: number | string; media_type: string }[]> {
  return db.query(
    'SELECT DISTINCT ON (hash) hash, size, media_type FROM fotos WHERE hash = ANY($1::text[])',
    [hashes],
  );
}

export async function getRegistro(db: Queryable, id: string): Promise<RegistroRow | undefined> {
  return (await db.query<RegistroRow>(`${SELECT} WHERE r.id = $1`, [id]))[0];
}

/**
 * A flow's records of a zone or of a project, in collection order. Competing collections are listed under their
 * point (listColetas), never as records of their own.
 */
function listRegistrosOf(db: Queryable, by: 'zona' | 'projeto', id: string, fluxo: string) {
  return db.query<RegistroRow>(
    `${SELECT} WHERE r.${by} = $1 AND r.fluxo = $2 AND r.conflito_de IS NULL ORDER BY r.data_hora, r.id`,
    [id, fluxo],
  );
}

export function listRegistrosByZona(db: Queryable, fluxo: string, zona: string): Promise<RegistroRow[]> {
  return listRegistrosOf(db, 'zona', zona, fluxo);
}

export function listRegistrosByProjeto(
  db: Queryable,
  fluxo: string,
  projeto: string,
): Promise<RegistroRow[]> {
  return listRegistrosOf(db, 'projeto', projeto, fluxo);
}

/** A flow's collected records of a project between two local days, both inclusive (getByData, getByPeriodo). */
export async function listRegistrosByPeriodo(
  db: Queryable,
  fluxo: string,
  projeto: string,
  periodo: { dataInicio: string; dataFim: string },
): Promise<RegistroRow[]> {
  return db.query<RegistroRow>(
    `${SELECT} WHERE r.projeto = $1 AND r.fluxo = $2 AND r.coletado AND r.conflito_de IS NULL
       AND ${fromLocalDay('r.data_hora', '$3')} AND ${untilLocalDay('r.data_hora', '$4')}
     ORDER BY r.data_hora, r.id`,
    [projeto, fluxo, periodo.dataInicio, periodo.dataFim],
  );
}

/** The competing collections of these points, in the order they reached the server. */
export async function listColetas(db: Queryable, pontos: string[]): Promise<RegistroRow[]> {
  if (pontos.length === 0) return [];
  return db.query<RegistroRow>(
    `${SELECT} WHERE r.conflito_de = ANY($1::uuid[]) ORDER BY r.sincronizado_em, r.id`,
    [pontos],
  );
}

export async function getFoto(
  db: Queryable,
  registro: string,
  slot: number,
): Promise<{ hash: string; media_type: string } | undefined> {
  return (
    await db.query<{ hash: string; media_type: string }>(
      'SELECT hash, media_type FROM fotos WHERE registro = $1 AND slot = $2',
      [registro, slot],
    )
  )[0];
}

/** A photo of an earlier revision of a record (issue 24), as registro_versoes keeps its rows. */
export async function getFotoDaVersao(
  db: Queryable,
  registro: string,
  versao: number,
  slot: number,
): Promise<{ hash: string; media_type: string } | undefined> {
  return (
    await db.query<{ hash: string; media_type: string }>(
      `SELECT f.hash, f."mediaType" AS media_type
       FROM registro_versoes v, jsonb_to_recordset(v.fotos) AS f(slot int, hash text, "mediaType" text)
       WHERE v.registro = $1 AND v.versao = $2 AND f.slot = $3`,
      [registro, versao, slot],
    )
  )[0];
}

/** How many of a project's records came from the field: collected, or drawn on a device. */
export async function countRegistrosDeCampo(db: Queryable, projeto: string): Promise<number> {
  const rows = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM registros WHERE projeto = $1 AND (coletado OR adicionado_app)',
    [projeto],
  );
  return rows[0]?.n ?? 0;
}

/** The zones of a project, or undefined when there is no such project. */
export async function getProjetoZonas(db: Queryable, projeto: string): Promise<string[] | undefined> {
  return (
    await db.query<{ zonas: string[] }>(
      'SELECT ARRAY(SELECT z.id::text FROM zonas z WHERE z.projeto = p.id) AS zonas FROM projetos p WHERE p.id = $1',
      [projeto],
    )
  )[0]?.zonas;
}

export async function getZona(
  db: Queryable,
  id: string,
): Promise<{ id: string; cliente: string } | undefined> {
  return (
    await db.query<{ id: string; cliente: string }>(
      'SELECT z.id, p.cliente FROM zonas z JOIN projetos p ON p.id = z.projeto WHERE z.id = $1',
      [id],
    )
  )[0];
}

export interface ProjetoRef {
  id: string;
  cliente: string;
  disponivel_interpres: boolean;
  zonas: string[];
}

/** A project as the back office's lists name it: by its name (any case) or by its id. */
export async function findProjeto(
  db: Queryable,
  by: 'nome' | 'id',
  value: string,
): Promise<ProjetoRef | undefined> {
  const where = by === 'id' ? 'id = $1' : 'lower(nome) = lower($1)';
  return (
    await db.query<ProjetoRef>(
      `SELECT id, cliente, disponivel_interpres,
         ARRAY(SELECT z.id::text FROM zonas z WHERE z.projeto = projetos.id) AS zonas
       FROM projetos WHERE ${where}`,
      [value],
    )
  )[0];
}

/** What the back office's deletion of a record reads of it, locked until its transaction ends (issue 39). */
export interface RegistroExcluivel {
  id: string;
  fluxo: Fluxo;
  projeto: string;
  projeto_nome: string;
  tecnico: string | null;
  tecnico_nome: string | null;
  data_hora: Date | null;
  /** Its competing collections, which go with it. */
  coletas: number;
}

export async function lockRegistroExcluivel(
  tx: Queryable,
  id: string,
): Promise<RegistroExcluivel | undefined> {
  return (
    await tx.query<RegistroExcluivel>(
      `SELECT r.id, r.fluxo, r.projeto, p.nome AS projeto_nome, r.tecnico, ${userName('u')} AS tecnico_nome,
         r.data_hora, (SELECT count(*)::int FROM registros c WHERE c.conflito_de = r.id) AS coletas
       FROM registros r JOIN projetos p ON p.id = r.projeto LEFT JOIN usuarios u ON u.id = r.tecnico
       WHERE r.id = $1 FOR UPDATE OF r`,
      [id],
    )
  )[0];
}

/**
 * Deletes a record and remembers it (registros_excluidos), with its competing collections, whose ids the phones that
 * sent them keep too. Its photo rows, revisions and review history go by cascade; the photo files stay until the
 * sweep finds no row refers to them.
 */
export async function excluirRegistro(tx: Queryable, id: string, por: string): Promise<void> {
  await tx.query(
    `INSERT INTO registros_excluidos (id, fluxo, projeto, tecnico, excluido_por)
     SELECT id, fluxo, projeto, tecnico, $2 FROM registros WHERE id = $1 OR conflito_de = $1
     ON CONFLICT (id) DO NOTHING`,
    [id, por],
  );
  await tx.query('DELETE FROM registros WHERE id = $1', [id]);
}

/** A stored record or competing collection as the phones' question about what they sent reads it (issue 39). */
export interface RegistroConferido {
  id: string;
  fluxo: Fluxo;
  tecnico: string | null;
  coletado: boolean;
  coleta: string | null;
  conflito_de: string | null;
  cliente: string;
  zona: string | null;
  disponivel_interpres: boolean;
  /** Its photos' hashes. */
  hashes: string[];
}

/** The records of these ids and the competing collections of these points. */
export async function findRegistrosConferidos(db: Queryable, ids: string[]): Promise<RegistroConferido[]> {
  if (ids.length === 0) return [];
  return db.query<RegistroConferido>(
    `SELECT r.id, r.fluxo, r.tecnico, r.coletado, r.coleta, r.conflito_de, p.cliente, r.zona, p.disponivel_interpres,
       ARRAY(SELECT f.hash FROM fotos f WHERE f.registro = r.id) AS hashes
     FROM registros r JOIN projetos p ON p.id = r.projeto
     WHERE r.id = ANY($1::uuid[]) OR r.conflito_de = ANY($1::uuid[])`,
    [ids],
  );
}

export interface RegistroExcluido {
  id: string;
  fluxo: string;
  tecnico: string | null;
}

/** The deletions remembered of these ids. */
export async function findRegistrosExcluidos(db: Queryable, ids: string[]): Promise<RegistroExcluido[]> {
  if (ids.length === 0) return [];
  return db.query<RegistroExcluido>(
    'SELECT id, fluxo, tecnico FROM registros_excluidos WHERE id = ANY($1::uuid[])',
    [ids],
  );
}

/** A record's photo rows by slot: what a restored photo's bytes must hash to. */
export async function fotosDoRegistro(db: Queryable, registro: string): Promise<Map<number, string>> {
  const rows = await db.query<{ slot: number; hash: string }>(
    'SELECT slot::int AS slot, hash FROM fotos WHERE registro = $1',
    [registro],
  );
  return new Map(rows.map((row) => [row.slot, row.hash]));
}
