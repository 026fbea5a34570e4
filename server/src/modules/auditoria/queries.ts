// SQL for the audit log: what a back-office write changed, read before and after it in its own transaction,
// the entry recorded there too (a write that rolls back leaves no entry), and the log's reading.
import type { PreloadedFluxo } from '@novus/domain/flows/registry';
import type { Queryable } from '../../db/database.ts';
import { fromLocalDay, untilLocalDay, userName } from '../../db/fragments.ts';

export type AuditEntidade =
  | 'cliente'
  | 'projeto'
  | 'usuario'
  | 'zonas'
  | `pontos:${PreloadedFluxo}`
  | 'pendentes'
  /** A reviewer's decision on a record, or a bulk approval (entidadeId: the project). */
  | 'revisao'
  /** A record deleted in the back office, or sent again by a phone to a server that lacked it (issue 39). */
  | 'registro'
  /** An administrador's setting (entidadeId: its group, 'seguranca'). */
  | 'configuracao'
  /** A sign-in with the company's account refused (entidadeId: the login the provider gave). */
  | 'acesso';
export type AuditAcao = 'criar' | 'alterar' | 'excluir' | 'importar' | 'recusar';
/** The values of an object as a reader of the log sees them: names rather than ids where that helps. */
export type Valores = Record<string, unknown>;

export interface AuditEntry {
  /** The administrador who wrote. */
  usuario: string;
  entidade: AuditEntidade;
  entidadeId: string;
  acao: AuditAcao;
  antes: Valores | null;
  depois: Valores | null;
}

/** Keys never written to the log, at any depth, whatever a caller passes. */
const SECRET_KEYS = new Set([
  'senha',
  'password',
  'passwordconfirmation',
  'password_hash',
  'passwordhash',
  'hash',
  'token',
]);

export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (typeof value !== 'object' || value === null || value instanceof Date) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !SECRET_KEYS.has(key.toLowerCase()))
      .map(([key, item]) => [key, withoutSecrets(item)]),
  );
}

/** Records one entry in the caller's transaction; the author's name is copied so it outlives the user. */
export async function recordAuditoria(tx: Queryable, entry: AuditEntry): Promise<void> {
  const json = (valores: Valores | null) =>
    valores === null ? null : JSON.stringify(withoutSecrets(valores));
  const rows = await tx.query<{ id: string }>(
    `INSERT INTO auditoria (usuario, usuario_nome, entidade, entidade_id, acao, antes, depois)
     SELECT id, COALESCE(${userName('usuarios')}, login), $2, $3, $4, $5::jsonb, $6::jsonb
     FROM usuarios WHERE id = $1
     RETURNING id::text AS id`,
    [entry.usuario, entry.entidade, entry.entidadeId, entry.acao, json(entry.antes), json(entry.depois)],
  );
  // The author was checked by `allow` in this request; a missing author must not pass unrecorded.
  if (rows.length === 0) throw new Error('audit entry without an author');
}

/**
 * A sign-in with the company's account that Novus refused (issue 42): there is no author in Novus, so the entry
 * names the login the provider gave, and says why and which provider.
 */
export async function recordAcessoRecusado(
  db: Queryable,
  recusa: { login: string; motivo: string; provedor: string },
): Promise<void> {
  await db.query(
    `INSERT INTO auditoria (usuario, usuario_nome, entidade, entidade_id, acao, antes, depois)
     VALUES (NULL, $1, 'acesso', $1, 'recusar', NULL, $2::jsonb)`,
    [recusa.login, JSON.stringify(recusa)],
  );
}

/** The entries one author writes of one kind of object in a write's transaction: what it was, what it is. */
export function auditoriaDe(tx: Queryable, usuario: string, entidade: AuditEntidade) {
  const record = (entidadeId: string, acao: AuditAcao, antes: Valores | null, depois: Valores | null) =>
    recordAuditoria(tx, { usuario, entidade, entidadeId, acao, antes, depois });
  return {
    criar: (id: string, depois: Valores | null) => record(id, 'criar', null, depois),
    alterar: (id: string, antes: Valores | null, depois: Valores | null) =>
      record(id, 'alterar', antes, depois),
    excluir: (id: string, antes: Valores | null) => record(id, 'excluir', antes, null),
  };
}

// The snapshots lock the object's row (FOR UPDATE): the values read before a write stay true until it commits.

export async function clienteValores(tx: Queryable, id: string): Promise<Valores | null> {
  const rows = await tx.query<Valores>('SELECT nome FROM clientes WHERE id = $1 FOR UPDATE', [id]);
  return rows[0] ?? null;
}

export async function projetoValores(tx: Queryable, id: string): Promise<Valores | null> {
  const rows = await tx.query<Valores>(
    `SELECT p.nome, c.nome AS cliente, p.fluxos, p.fuso, p.disponivel_interpres AS "disponivelInterpres",
       p.limite_download AS "limiteDownload", p.carimbo_fotos AS "carimboFotos",
       p.retencao_copias_dias AS "retencaoCopiasDias"
     FROM projetos p JOIN clientes c ON c.id = p.cliente WHERE p.id = $1 FOR UPDATE OF p`,
    [id],
  );
  return rows[0] ?? null;
}

/** A user as the form shows them: names, roles, client's name and 'project [zone]' labels; never the hash. */
export async function usuarioValores(tx: Queryable, id: string): Promise<Valores | null> {
  const locked = await tx.query('SELECT id FROM usuarios WHERE id = $1 FOR UPDATE', [id]);
  if (locked.length === 0) return null;
  const rows = await tx.query<Valores>(
    `SELECT u.login, u.first_name AS "firstName", u.last_name AS "lastName", u.roles, c.nome AS cliente,
       ARRAY(SELECT p.nome || ' [' || z.label || ']' FROM usuario_zonas uz
             JOIN zonas z ON z.id = uz.zona JOIN projetos p ON p.id = z.projeto
             WHERE uz.usuario = u.id ORDER BY 1) AS zonas
     FROM usuarios u LEFT JOIN clientes c ON c.id = u.cliente WHERE u.id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/**
 * What an import changed: the values shown (zone labels and their area; a flow's preloaded point count) and a
 * fingerprint of the whole content, so re-sending the same file records nothing and a moved border does.
 */
export interface Imported {
  valores: Valores;
  marca: string;
  /** Nothing imported (no zones, no points). */
  vazio: boolean;
}

export async function zonasImportadas(tx: Queryable, projetoId: string): Promise<Imported> {
  const rows = await tx.query<{ projeto: string | null; zonas: string[]; hectares: number; marca: string }>(
    `SELECT (SELECT nome FROM projetos WHERE id = $1) AS projeto,
       COALESCE(array_agg(label ORDER BY label, id), '{}') AS zonas,
       COALESCE(round((sum(ST_Area(geom::geography)) / 10000)::numeric, 1), 0)::float8 AS hectares,
       md5(COALESCE(string_agg(label || ':' || ST_AsText(geom), '|' ORDER BY label, id), '')) AS marca
     FROM zonas WHERE projeto = $1`,
    [projetoId],
  );
  const row = rows[0] ?? { projeto: null, zonas: [], hectares: 0, marca: '' };
  return {
    valores: { projeto: row.projeto, zonas: row.zonas, hectares: row.hectares },
    marca: row.marca,
    vazio: row.zonas.length === 0,
  };
}

export async function pontosImportados(
  tx: Queryable,
  projetoId: string,
  fluxo: PreloadedFluxo,
): Promise<Imported> {
  const rows = await tx.query<{ projeto: string | null; pontos: number; marca: string }>(
    `SELECT (SELECT nome FROM projetos WHERE id = $1) AS projeto, count(*)::int AS pontos,
       md5(COALESCE(string_agg(concat_ws(';', lat, lng, dados::text), '|' ORDER BY lat, lng, dados::text), '')) AS marca
     FROM registros WHERE projeto = $1 AND fluxo = $2 AND carregado_backoffice AND conflito_de IS NULL`,
    [projetoId, fluxo],
  );
  const row = rows[0] ?? { projeto: null, pontos: 0, marca: '' };
  return {
    valores: { projeto: row.projeto, pontos: row.pontos },
    marca: row.marca,
    vazio: row.pontos === 0,
  };
}

export interface AuditFilter {
  usuario: string | undefined;
  /** Days YYYY-MM-DD, both inclusive, in FUSO_HORARIO. */
  inicio: string | undefined;
  fim: string | undefined;
  limite: number;
  offset: number;
}

export interface AuditRow {
  id: string;
  em: Date;
  usuario: string | null;
  usuario_nome: string;
  entidade: string;
  entidade_id: string;
  acao: string;
  antes: Valores | null;
  depois: Valores | null;
}

const FILTER = `($1::uuid IS NULL OR usuario = $1)
  AND ($2::date IS NULL OR ${fromLocalDay('em', '$2')})
  AND ($3::date IS NULL OR ${untilLocalDay('em', '$3')})`;

/** The entries of the filter, newest first, one page, and how many there are in all. */
export async function listAuditoria(
  db: Queryable,
  filter: AuditFilter,
): Promise<{ rows: AuditRow[]; total: number }> {
  const params = [filter.usuario ?? null, filter.inicio ?? null, filter.fim ?? null];
  const rows = await db.query<AuditRow>(
    `SELECT id::text AS id, em, usuario, usuario_nome, entidade, entidade_id, acao, antes, depois
     FROM auditoria WHERE ${FILTER}
     ORDER BY em DESC, auditoria.id DESC LIMIT $4 OFFSET $5`,
    [...params, filter.limite, filter.offset],
  );
  const count = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM auditoria WHERE ${FILTER}`,
    params,
  );
  return { rows, total: count[0]?.n ?? 0 };
}
