// SQL for projects, their zones (PostGIS polygons) and their preloaded points (rows of `registros`).
import type { Polygon } from 'geojson';
import { RETENCAO_COPIAS_DIAS } from '@novus/domain/constants';
import { type PreloadedFlow, type PreloadedFluxo, PRELOADED_FLUXOS } from '@novus/domain/flows/registry';
import type { ProjetoScope } from '../../auth/access.ts';
import type { Queryable } from '../../db/database.ts';
import { SEQUENCIAL_MAX } from '../registros/queries.ts';
import type { PontoInput, ProjetoInput, ZonaInput } from './input.ts';

export interface ProjetoRow {
  id: string;
  nome: string;
  cliente: string;
  cliente_nome: string;
  fluxos: string[];
  fuso: number | null;
  disponivel_interpres: boolean;
  limite_download: number | null;
  carimbo_fotos: boolean;
  retencao_copias_dias: number;
  imagens_mapa: unknown[];
}

const PROJETO_SELECT = `SELECT p.id, p.nome, p.cliente, c.nome AS cliente_nome, p.fluxos, p.fuso,
  p.disponivel_interpres, p.limite_download, p.carimbo_fotos, p.retencao_copias_dias, p.imagens_mapa
  FROM projetos p JOIN clientes c ON c.id = p.cliente`;

export async function listProjetos(db: Queryable, scope: ProjetoScope): Promise<ProjetoRow[]> {
  return db.query<ProjetoRow>(
    `${PROJETO_SELECT}
     WHERE $1 OR p.cliente = $2 OR ($3 AND p.disponivel_interpres)
     ORDER BY lower(p.nome)`,
    [scope.all, scope.cliente, scope.interpres],
  );
}

export async function getProjeto(db: Queryable, id: string): Promise<ProjetoRow | undefined> {
  return (await db.query<ProjetoRow>(`${PROJETO_SELECT} WHERE p.id = $1`, [id]))[0];
}

export async function listProjetosByCliente(db: Queryable, clienteId: string): Promise<ProjetoRow[]> {
  return db.query<ProjetoRow>(`${PROJETO_SELECT} WHERE p.cliente = $1 ORDER BY lower(p.nome)`, [clienteId]);
}

/** The projects holding one of the user's zones. */
export async function listProjetosOfUser(db: Queryable, userId: string): Promise<ProjetoRow[]> {
  return db.query<ProjetoRow>(
    `${PROJETO_SELECT}
     WHERE p.id IN (SELECT z.projeto FROM zonas z JOIN usuario_zonas uz ON uz.zona = z.id WHERE uz.usuario = $1)
     ORDER BY lower(p.nome)`,
    [userId],
  );
}

export interface ZonaRow {
  id: string;
  projeto: string;
  label: string;
  poligono2: Polygon;
}

/** Zones of the projects, optionally only those assigned to a user. */
export async function listZonas(db: Queryable, projetoIds: string[], userId?: string): Promise<ZonaRow[]> {
  if (projetoIds.length === 0) return [];
  return db.query<ZonaRow>(
    `SELECT z.id, z.projeto, z.label, z.poligono2 FROM zonas z
     WHERE z.projeto = ANY($1::uuid[])
       AND ($2::uuid IS NULL OR EXISTS (SELECT 1 FROM usuario_zonas uz WHERE uz.zona = z.id AND uz.usuario = $2))
     ORDER BY z.label, z.id`,
    [projetoIds, userId ?? null],
  );
}

export interface PontoRow {
  id: string;
  fluxo: PreloadedFluxo;
  lat: number | null;
  lng: number | null;
  coletado: boolean;
  carregado_backoffice: boolean;
  dados: Record<string, unknown>;
}

export async function listPreloadedPontos(db: Queryable, projetoId: string): Promise<PontoRow[]> {
  return db.query<PontoRow>(
    `SELECT id, fluxo, lat, lng, coletado, carregado_backoffice, dados FROM registros
     WHERE projeto = $1 AND fluxo = ANY($2::text[]) AND conflito_de IS NULL
     ORDER BY fluxo, ordem NULLS LAST, created_at, id`,
    [projetoId, PRELOADED_FLUXOS],
  );
}

/** A project's columns in the order insertProjeto and updateProjeto write them. */
const projetoValues = (input: ProjetoInput) => [
  input.nome,
  input.cliente,
  input.fluxos,
  input.fuso ?? null,
  input.disponivelInterpres,
  input.limiteDownload ?? null,
  // absent (an older form or API client): on for a new project, as it was for one edited
  input.carimboFotos ?? null,
  // absent likewise: the column's default for a new project, as it was for one edited
  input.retencaoCopiasDias ?? null,
];

export async function insertProjeto(tx: Queryable, input: ProjetoInput): Promise<string> {
  const rows = await tx.query<{ id: string }>(
    `INSERT INTO projetos (nome, cliente, fluxos, fuso, disponivel_interpres, limite_download, carimbo_fotos,
       retencao_copias_dias)
     VALUES ($1, $2, $3, $4, $5, $6, coalesce($7, true), coalesce($8, ${RETENCAO_COPIAS_DIAS})) RETURNING id`,
    projetoValues(input),
  );
  const row = rows[0];
  if (!row) throw new Error('INSERT ... RETURNING gave no row');
  return row.id;
}

export async function updateProjeto(tx: Queryable, id: string, input: ProjetoInput): Promise<boolean> {
  const rows = await tx.query<{ id: string }>(
    `UPDATE projetos SET nome = $2, cliente = $3, fluxos = $4, fuso = $5, disponivel_interpres = $6,
       limite_download = $7, carimbo_fotos = coalesce($8, carimbo_fotos),
       retencao_copias_dias = coalesce($9, retencao_copias_dias)
     WHERE id = $1 RETURNING id`,
    [id, ...projetoValues(input)],
  );
  return rows.length > 0;
}

export async function deleteProjeto(tx: Queryable, id: string): Promise<boolean> {
  return (await tx.query('DELETE FROM projetos WHERE id = $1 RETURNING id', [id])).length > 0;
}

/** Labels of the zones whose polygon PostGIS finds invalid (a ring crossing itself, say). */
export async function invalidZonaLabels(tx: Queryable, zonas: ZonaInput[]): Promise<string[]> {
  if (zonas.length === 0) return [];
  const rows = await tx.query<{ label: string }>(
    `SELECT z->>'label' AS label FROM jsonb_array_elements($1::jsonb) AS z
     WHERE NOT ST_IsValid(ST_GeomFromGeoJSON((z->'poligono2')::text))`,
    [JSON.stringify(zonas.map((zona) => ({ label: zona.label, poligono2: zona.poligono2 })))],
  );
  return rows.map((row) => row.label);
}

/**
 * Replaces a project's zones. A new zone keeps the id of the old one with the same id or, failing that, the
 * same label, so technicians keep their assignments when a corrected KML is uploaded; then every record of
 * the project is assigned again to the zone that now contains it.
 */
export async function replaceZonas(tx: Queryable, projetoId: string, zonas: ZonaInput[]): Promise<void> {
  const existing = await tx.query<{ id: string; label: string }>(
    'SELECT id, label FROM zonas WHERE projeto = $1',
    [projetoId],
  );
  const unused = new Map(existing.map((zona) => [zona.id, zona.label]));
  // Several zones may share a label (IBGE names every island of a municipality alike): of those, the one the new
  // polygon overlaps most, so a technician's island stays theirs whatever order the file lists the islands in.
  const sameLabel = await tx.query<{ index: number; id: string }>(
    `SELECT n.index::int AS index, z.id FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS n(zona, index)
     JOIN zonas z ON z.projeto = $1 AND z.label = n.zona->>'label'
     ORDER BY n.index, ST_Area(ST_Intersection(z.geom,
       ST_SetSRID(ST_GeomFromGeoJSON((n.zona->'poligono2')::text), 4326))) DESC, z.id`,
    [projetoId, JSON.stringify(zonas.map((zona) => ({ label: zona.label, poligono2: zona.poligono2 })))],
  );
  const withIds = zonas.map((zona, index) => {
    let id = zona._id && unused.has(zona._id) ? zona._id : undefined;
    id ??= sameLabel.find((match) => match.index === index + 1 && unused.has(match.id))?.id;
    if (id) unused.delete(id);
    return { id: id ?? null, label: zona.label, poligono2: zona.poligono2 };
  });
  if (unused.size > 0) await tx.query('DELETE FROM zonas WHERE id = ANY($1::uuid[])', [[...unused.keys()]]);
  await tx.query(
    `INSERT INTO zonas (id, projeto, label, poligono2, geom)
     SELECT COALESCE((z->>'id')::uuid, gen_random_uuid()), $1, z->>'label', z->'poligono2',
            ST_SetSRID(ST_GeomFromGeoJSON((z->'poligono2')::text), 4326)
     FROM jsonb_array_elements($2::jsonb) AS z
     ON CONFLICT (id) DO UPDATE SET label = EXCLUDED.label, poligono2 = EXCLUDED.poligono2, geom = EXCLUDED.geom`,
    [projetoId, JSON.stringify(withIds)],
  );
  await tx.query(
    `UPDATE registros r SET zona = (
       SELECT z.id FROM zonas z WHERE z.projeto = r.projeto AND ST_Intersects(z.geom, r.geom) ORDER BY z.id LIMIT 1)
     WHERE r.projeto = $1 AND r.geom IS NOT NULL`,
    [projetoId],
  );
}

/**
 * Replaces the preloaded points of one flow that no technician has collected yet. Collected points stay, and a
 * new point that is the same as a collected one (its declaration's preload.key) is not added again.
 */
export async function replacePreloadedPontos(
  tx: Queryable,
  projetoId: string,
  flow: PreloadedFlow,
  pontos: PontoInput[],
): Promise<void> {
  const fluxo = flow.key;
  await tx.query(
    `DELETE FROM registros WHERE projeto = $1 AND fluxo = $2 AND carregado_backoffice AND NOT coletado`,
    [projetoId, fluxo],
  );
  if (pontos.length === 0) return;
  const kept = await tx.query<{ lat: number | null; lng: number | null; dados: Record<string, unknown> }>(
    'SELECT lat, lng, dados FROM registros WHERE projeto = $1 AND fluxo = $2 AND conflito_de IS NULL',
    [projetoId, fluxo],
  );
  const keptKeys = new Set(kept.map((ponto) => flow.preload.key(ponto)));
  const fresh = pontos.filter((ponto) => !keptKeys.has(flow.preload.key(ponto)));
  if (fresh.length === 0) return;
  // A numbered flow's points without a number of their own (IP's) follow the project's largest, in file order; the
  // caller holds the project's row lock (it wrote the row), so no upload numbers a point between (coleta.ts).
  const numbering = flow.numbered
    ? `CASE WHEN jsonb_typeof(p.dados->'sequencial') = 'number' THEN p.dados
         ELSE p.dados || jsonb_build_object('sequencial', ${SEQUENCIAL_MAX} + p.ordem) END`
    : 'p.dados';
  await tx.query(
    `INSERT INTO registros (id, fluxo, projeto, zona, lat, lng, geom, carregado_backoffice, coletado, dados, ordem)
     SELECT gen_random_uuid(), $2, $1,
       CASE WHEN p.lat IS NULL THEN NULL ELSE (
         SELECT z.id FROM zonas z
         WHERE z.projeto = $1 AND ST_Intersects(z.geom, ST_SetSRID(ST_MakePoint(p.lng, p.lat), 4326))
         ORDER BY z.id LIMIT 1) END,
       p.lat, p.lng,
       CASE WHEN p.lat IS NULL THEN NULL ELSE ST_SetSRID(ST_MakePoint(p.lng, p.lat), 4326) END,
       true, false, ${numbering}, p.ordem
     FROM jsonb_to_recordset($3::jsonb) AS p(lat double precision, lng double precision, dados jsonb, ordem integer)`,
    [projetoId, fluxo, JSON.stringify(fresh.map((ponto, index) => ({ ...ponto, ordem: index + 1 })))],
  );
}
