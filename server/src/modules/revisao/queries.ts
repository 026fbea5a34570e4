// SQL of the review (issue 24): a project's field records filtered and paged, their counts per flag and state, a
// reviewer's decision (one record, or every record a filter shows), a record's history, the project's thresholds,
// and a technician's rejected records.
import type { FiltroRevisao } from '@novus/domain/api/revisao';
import { FLAG_CODIGOS, type EstadoRevisao, type Flag, REVISAO_POR_PAGINA } from '@novus/domain/revisao';
import type { Fluxo } from '@novus/domain/flows/keys';
import type { Queryable } from '../../db/database.ts';
import { fromLocalDay, untilLocalDay, userName } from '../../db/fragments.ts';

/**
 * A filter over `registros r` in two parts: `base` (project, flow, technician, dates) and `flagEstado` (flag and
 * review state), with the parameters of both from $1 (base's first, so base alone takes a prefix of them).
 */
export function filtroPartes(filtro: FiltroRevisao): {
  base: string[];
  baseParams: number;
  flagEstado: string[];
  params: unknown[];
} {
  const params: unknown[] = [filtro.projeto];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const base = ['r.projeto = $1', 'r.coletado', 'r.conflito_de IS NULL'];
  if (filtro.fluxo) base.push(`r.fluxo = ${param(filtro.fluxo)}`);
  if (filtro.tecnico) base.push(`r.tecnico = ${param(filtro.tecnico)}`);
  if (filtro.dataInicio) base.push(fromLocalDay('r.data_hora', param(filtro.dataInicio)));
  if (filtro.dataFim) base.push(untilLocalDay('r.data_hora', param(filtro.dataFim)));
  const baseParams = params.length;
  const flagEstado: string[] = [];
  if (filtro.estado) flagEstado.push(`r.revisao = ${param(filtro.estado)}`);
  if (filtro.flag === 'qualquer') flagEstado.push(`r.flags <> '[]'`);
  else if (filtro.flag === 'nenhuma') flagEstado.push(`r.flags = '[]'`);
  else if (filtro.flag) {
    // Served by the GIN index registros_flags (jsonb_path_ops, partial on flags <> '[]').
    flagEstado.push(
      `r.flags <> '[]'`,
      `r.flags @> ${param(JSON.stringify([{ codigo: filtro.flag }]))}::jsonb`,
    );
  }
  return { base, baseParams, flagEstado, params };
}

/** The WHERE of a whole filter over `registros r`, with its parameters from $1. */
export function filtroSql(filtro: FiltroRevisao): { where: string; params: unknown[] } {
  const { base, flagEstado, params } = filtroPartes(filtro);
  return { where: [...base, ...flagEstado].join(' AND '), params };
}

export interface ItemRow {
  id: string;
  /** Written only by the flows' routes, so always a key of the registry. */
  fluxo: Fluxo;
  projeto: string;
  tecnico: string | null;
  tecnico_nome: string | null;
  zona: string | null;
  data_hora: Date | null;
  sincronizado_em: Date | null;
  lat: number | null;
  lng: number | null;
  dados: Record<string, unknown>;
  flags: Flag[];
  revisao: EstadoRevisao;
  versao: number;
  revisao_comentario: string | null;
  revisao_campos: Record<string, string>;
  revisor: string | null;
  revisado_em: Date | null;
  fotos: number[];
}

const SELECT_ITEM = `SELECT r.id, r.fluxo, r.projeto, r.tecnico, ${userName('u')} AS tecnico_nome, z.label AS zona,
    r.data_hora, r.sincronizado_em, r.lat, r.lng, r.dados, r.flags, r.revisao, r.versao, r.revisao_comentario,
    r.revisao_campos, ${userName('rv')} AS revisor, r.revisado_em,
    COALESCE((SELECT array_agg(f.slot ORDER BY f.slot) FROM fotos f WHERE f.registro = r.id), '{}') AS fotos
  FROM registros r
  LEFT JOIN usuarios u ON u.id = r.tecnico
  LEFT JOIN usuarios rv ON rv.id = r.revisado_por
  LEFT JOIN zonas z ON z.id = r.zona`;

export interface Pagina {
  total: number;
  aAprovar: number;
  registros: ItemRow[];
  flags: Record<string, number>;
  estados: Record<string, number>;
  tecnicos: { id: string; nome: string }[];
}

/** One page of the review list (newest first), the filter's totals, and the counts per flag and per state. */
export async function listRevisao(db: Queryable, filtro: FiltroRevisao, pagina: number): Promise<Pagina> {
  const { base, baseParams, flagEstado, params } = filtroPartes(filtro);
  const where = [...base, ...flagEstado].join(' AND ');
  const offset = (pagina - 1) * REVISAO_POR_PAGINA;
  const [registros, estados, flags, tecnicos] = await Promise.all([
    db.query<ItemRow>(
      `${SELECT_ITEM} WHERE ${where} ORDER BY r.data_hora DESC, r.id DESC
       LIMIT ${REVISAO_POR_PAGINA} OFFSET ${offset}`,
      params,
    ),
    // One pass for the counts per state (flag and state not applied) and the filter's own totals.
    db.query<{ estado: string; n: number; filtrados: number }>(
      `SELECT r.revisao AS estado, count(*)::int AS n,
         count(*) FILTER (WHERE ${flagEstado.join(' AND ') || 'true'})::int AS filtrados
       FROM registros r WHERE ${base.join(' AND ')} GROUP BY r.revisao`,
      params,
    ),
    db.query<{ codigo: string; n: number }>(
      `SELECT f.value->>'codigo' AS codigo, count(*)::int AS n
       FROM registros r CROSS JOIN LATERAL jsonb_array_elements(r.flags) f
       WHERE ${base.join(' AND ')} AND r.flags <> '[]' GROUP BY 1`,
      params.slice(0, baseParams),
    ),
    db.query<{ id: string; nome: string }>(
      `SELECT u.id, ${userName('u')} AS nome
       FROM (SELECT DISTINCT r.tecnico FROM registros r
             WHERE r.projeto = $1 AND r.coletado AND r.conflito_de IS NULL AND r.tecnico IS NOT NULL) t
       JOIN usuarios u ON u.id = t.tecnico
       ORDER BY 2`,
      [filtro.projeto],
    ),
  ]);
  const total = estados.reduce((sum, row) => sum + row.filtrados, 0);
  const aprovados = estados.find((row) => row.estado === 'aprovado')?.filtrados ?? 0;
  return {
    total,
    aAprovar: total - aprovados,
    registros,
    estados: Object.fromEntries(estados.map((row) => [row.estado, row.n])),
    flags: Object.fromEntries(flags.map((row) => [row.codigo, row.n])),
    tecnicos,
  };
}

export async function getItem(db: Queryable, id: string): Promise<ItemRow | undefined> {
  return (await db.query<ItemRow>(`${SELECT_ITEM} WHERE r.id = $1`, [id]))[0];
}

export interface Revisavel {
  id: string;
  fluxo: string;
  projeto: string;
  cliente: string;
  disponivel_interpres: boolean;
  versao: number;
  revisao: EstadoRevisao;
}

/** A field record (collected, not a competing collection) locked for a decision; undefined when there is none. */
export async function lockRevisavel(tx: Queryable, id: string): Promise<Revisavel | undefined> {
  return (
    await tx.query<Revisavel>(
      `SELECT r.id, r.fluxo, r.projeto, p.cliente, p.disponivel_interpres, r.versao, r.revisao
       FROM registros r JOIN projetos p ON p.id = r.projeto
       WHERE r.id = $1 AND r.coletado AND r.conflito_de IS NULL
       FOR UPDATE OF r`,
      [id],
    )
  )[0];
}

export interface Decisao {
  estado: EstadoRevisao;
  comentario: string | null;
  campos: Record<string, string>;
  usuario: string;
}

/** Writes a decision on the record's current revision, and keeps it in its history. */
export async function decidir(tx: Queryable, registro: Revisavel, decisao: Decisao): Promise<void> {
  await tx.query(
    `UPDATE registros SET revisao = $2, revisao_comentario = $3, revisao_campos = $4::jsonb, revisado_por = $5,
       revisado_em = now()
     WHERE id = $1`,
    [registro.id, decisao.estado, decisao.comentario, JSON.stringify(decisao.campos), decisao.usuario],
  );
  await tx.query(
    `INSERT INTO revisoes (registro, versao, estado, comentario, campos, usuario)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6)`,
    [
      registro.id,
      registro.versao,
      decisao.estado,
      decisao.comentario,
      JSON.stringify(decisao.campos),
      decisao.usuario,
    ],
  );
}

/** How many records a filter shows that are not approved yet (locked: the bulk approval that follows takes them). */
export async function contarAAprovar(tx: Queryable, filtro: FiltroRevisao): Promise<number> {
  const { where, params } = filtroSql(filtro);
  const rows = await tx.query<{ id: string }>(
    `SELECT r.id FROM registros r WHERE ${where} AND r.revisao <> 'aprovado' FOR UPDATE OF r`,
    params,
  );
  return rows.length;
}

/** Approves every record the filter shows that is not approved yet, each decision kept in its history. */
export async function aprovarTodos(tx: Queryable, filtro: FiltroRevisao, usuario: string): Promise<number> {
  const { where, params } = filtroSql(filtro);
  const u = `$${params.length + 1}`;
  const rows = await tx.query<{ n: number }>(
    `WITH alvo AS (
       UPDATE registros r SET revisao = 'aprovado', revisao_comentario = NULL, revisao_campos = '{}',
         revisado_por = ${u}, revisado_em = now()
       WHERE ${where} AND r.revisao <> 'aprovado'
       RETURNING r.id, r.versao
     ), historico AS (
       INSERT INTO revisoes (registro, versao, estado, usuario) SELECT id, versao, 'aprovado', ${u} FROM alvo
     )
     SELECT count(*)::int AS n FROM alvo`,
    [...params, usuario],
  );
  return rows[0]?.n ?? 0;
}

export interface DecisaoRow {
  versao: number;
  estado: EstadoRevisao;
  comentario: string | null;
  campos: Record<string, string>;
  usuario: string | null;
  em: Date;
}

export async function listDecisoes(db: Queryable, registro: string): Promise<DecisaoRow[]> {
  return db.query<DecisaoRow>(
    `SELECT h.versao, h.estado, h.comentario, h.campos, ${userName('u')} AS usuario, h.em
     FROM revisoes h LEFT JOIN usuarios u ON u.id = h.usuario
     WHERE h.registro = $1 ORDER BY h.em, h.id`,
    [registro],
  );
}

export interface VersaoRow {
  versao: number;
  data_hora: Date | null;
  sincronizado_em: Date | null;
  lat: number | null;
  lng: number | null;
  dados: Record<string, unknown>;
  flags: Flag[];
  fotos: number[];
}

/** Every revision of a record, the current one last. */
export async function listVersoes(db: Queryable, registro: string): Promise<VersaoRow[]> {
  return db.query<VersaoRow>(
    `SELECT v.versao, v.data_hora, v.sincronizado_em, v.lat, v.lng, v.dados, v.flags,
       COALESCE((SELECT array_agg((f->>'slot')::int ORDER BY (f->>'slot')::int) FROM jsonb_array_elements(v.fotos) f),
                '{}') AS fotos
     FROM registro_versoes v WHERE v.registro = $1
     UNION ALL
     SELECT r.versao, r.data_hora, r.sincronizado_em, r.lat, r.lng, r.dados, r.flags,
       COALESCE((SELECT array_agg(f.slot ORDER BY f.slot) FROM fotos f WHERE f.registro = r.id), '{}')
     FROM registros r WHERE r.id = $1
     ORDER BY 1`,
    [registro],
  );
}

export interface Limites {
  precisaoMaxima: number;
  distanciaDuplicata: number;
}

export async function getLimites(db: Queryable, projeto: string): Promise<Limites | undefined> {
  return (
    await db.query<Limites>(
      `SELECT precisao_maxima AS "precisaoMaxima", distancia_duplicata AS "distanciaDuplicata"
       FROM projetos WHERE id = $1`,
      [projeto],
    )
  )[0];
}

export async function setLimites(db: Queryable, projeto: string, limites: Limites): Promise<void> {
  await db.query('UPDATE projetos SET precisao_maxima = $2, distancia_duplicata = $3 WHERE id = $1', [
    projeto,
    limites.precisaoMaxima,
    limites.distanciaDuplicata,
  ]);
}

export interface CorrecaoRow {
  id: string;
  revisao_comentario: string | null;
  revisao_campos: Record<string, string>;
  revisor: string | null;
  revisado_em: Date | null;
  versao: number;
  fotos: { slot: number; hash: string }[];
}

/** A technician's rejected records (not yet corrected: a correction makes them pendente again). */
export async function listCorrecoes(db: Queryable, tecnico: string): Promise<CorrecaoRow[]> {
  return db.query<CorrecaoRow>(
    `SELECT r.id, r.revisao_comentario, r.revisao_campos, ${userName('rv')} AS revisor, r.revisado_em, r.versao,
       COALESCE((SELECT jsonb_agg(jsonb_build_object('slot', f.slot, 'hash', f.hash) ORDER BY f.slot)
                 FROM fotos f WHERE f.registro = r.id), '[]') AS fotos
     FROM registros r LEFT JOIN usuarios rv ON rv.id = r.revisado_por
     WHERE r.tecnico = $1 AND r.revisao = 'reprovado' AND r.conflito_de IS NULL
     ORDER BY r.revisado_em, r.id`,
    [tecnico],
  );
}

/** Every flag code, for counts that list each one (0 when no record has it). */
export const CODIGOS = FLAG_CODIGOS;
