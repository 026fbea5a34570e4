// SQL for a project's basemap package (table mapas_base, migration 0012), and its answer (mapaBaseAnswer).
import type { Polygon } from 'geojson';
import type { MapaBase, MapaBaseTipo } from '@novus/domain/api/mapa-base';
import type { Queryable } from '../../db/database.ts';
import type { ArchiveFacts } from './archive.ts';

export interface MapaBaseRow {
  projeto: string;
  origem: 'arquivo' | 'url';
  hash: string | null;
  url: string | null;
  nome: string;
  tipo: MapaBaseTipo;
  min_zoom: number;
  max_zoom: number;
  oeste: number;
  sul: number;
  leste: number;
  norte: number;
  tamanho: number;
  blocos: number;
  versao: string;
  atribuicao: string | null;
  camadas: string[];
}

// bigints read as float8: exact up to 2^53, and a number on PostgreSQL and PGlite alike.
const SELECT = `SELECT projeto, origem, hash, url, nome, tipo, min_zoom, max_zoom, oeste, sul, leste, norte,
  tamanho::float8 AS tamanho, blocos::float8 AS blocos, versao, atribuicao, camadas FROM mapas_base`;

export async function getMapaBaseRow(db: Queryable, projeto: string): Promise<MapaBaseRow | undefined> {
  return (await db.query<MapaBaseRow>(`${SELECT} WHERE projeto = $1`, [projeto]))[0];
}

export async function listMapaBaseRows(db: Queryable, projetos: string[]): Promise<MapaBaseRow[]> {
  if (projetos.length === 0) return [];
  return db.query<MapaBaseRow>(`${SELECT} WHERE projeto = ANY($1::uuid[])`, [projetos]);
}

export interface NovoMapaBase {
  projeto: string;
  origem: 'arquivo' | 'url';
  hash: string | null;
  url: string | null;
  nome: string;
  tamanho: number;
  versao: string;
  facts: ArchiveFacts;
  usuario: string;
}

/** Writes the project's package (replacing its row); the hash of the archive it replaced, if any. */
export async function saveMapaBase(tx: Queryable, mapa: NovoMapaBase): Promise<string | null> {
  const old = await tx.query<{ hash: string | null }>(
    'SELECT hash FROM mapas_base WHERE projeto = $1 FOR UPDATE',
    [mapa.projeto],
  );
  const { facts } = mapa;
  await tx.query(
    `INSERT INTO mapas_base (projeto, origem, hash, url, nome, tipo, min_zoom, max_zoom, oeste, sul, leste, norte,
       tamanho, blocos, versao, atribuicao, camadas, enviado_por, enviado_em)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, now())
     ON CONFLICT (projeto) DO UPDATE SET origem = EXCLUDED.origem, hash = EXCLUDED.hash, url = EXCLUDED.url,
       nome = EXCLUDED.nome, tipo = EXCLUDED.tipo, min_zoom = EXCLUDED.min_zoom, max_zoom = EXCLUDED.max_zoom,
       oeste = EXCLUDED.oeste, sul = EXCLUDED.sul, leste = EXCLUDED.leste, norte = EXCLUDED.norte,
       tamanho = EXCLUDED.tamanho, blocos = EXCLUDED.blocos, versao = EXCLUDED.versao,
       atribuicao = EXCLUDED.atribuicao, camadas = EXCLUDED.camadas, enviado_por = EXCLUDED.enviado_por,
       enviado_em = now()`,
    [
      mapa.projeto,
      mapa.origem,
      mapa.hash,
      mapa.url,
      mapa.nome,
      facts.tipo,
      facts.minZoom,
      facts.maxZoom,
      facts.limites.oeste,
      facts.limites.sul,
      facts.limites.leste,
      facts.limites.norte,
      mapa.tamanho,
      facts.blocos,
      mapa.versao,
      facts.atribuicao,
      facts.camadas,
      mapa.usuario,
    ],
  );
  const previous = old[0]?.hash ?? null;
  return previous === mapa.hash ? null : previous;
}

/** Removes the project's package; the hash of its archive (null for a URL), or undefined when it had none. */
export async function deleteMapaBase(tx: Queryable, projeto: string): Promise<string | null | undefined> {
  const rows = await tx.query<{ hash: string | null }>(
    'DELETE FROM mapas_base WHERE projeto = $1 RETURNING hash',
    [projeto],
  );
  return rows.length === 0 ? undefined : (rows[0]?.hash ?? null);
}

/** Whether some project's package is this archive. */
export async function archiveReferenced(db: Queryable, hash: string): Promise<boolean> {
  return (await db.query('SELECT 1 FROM mapas_base WHERE hash = $1 LIMIT 1', [hash])).length > 0;
}

/** Who may read a project's package (its client and zones) and the package itself; undefined: no project. */
export interface MapaBaseAcesso {
  cliente: string;
  zonas: string[];
  mapa: MapaBaseRow | undefined;
}

export async function getMapaBaseAcesso(db: Queryable, projeto: string): Promise<MapaBaseAcesso | undefined> {
  const rows = await db.query<{ cliente: string; zonas: string[] }>(
    `SELECT p.cliente, COALESCE(array_agg(z.id::text) FILTER (WHERE z.id IS NOT NULL), '{}') AS zonas
     FROM projetos p LEFT JOIN zonas z ON z.projeto = p.id WHERE p.id = $1 GROUP BY p.cliente`,
    [projeto],
  );
  const row = rows[0];
  if (!row) return undefined;
  return { cliente: row.cliente, zonas: row.zonas, mapa: await getMapaBaseRow(db, projeto) };
}

type Limites = MapaBase['limites'];

/** The labels of the zones whose bounding box is not inside the archive's bounds. */
export function zonasDescobertas(limites: Limites, zonas: { label: string; poligono2: Polygon }[]): string[] {
  return zonas
    .filter((zona) => {
      const points = zona.poligono2.coordinates.flat();
      return points.some(
        ([lng = NaN, lat = NaN]) =>
          !(lng >= limites.oeste && lng <= limites.leste && lat >= limites.sul && lat <= limites.norte),
      );
    })
    .map((zona) => zona.label);
}

/** The package as mapaBaseAnswer says, its coverage judged against `zonas`. */
export function mapaBaseJson(row: MapaBaseRow, zonas: { label: string; poligono2: Polygon }[]): MapaBase {
  const limites = { oeste: row.oeste, sul: row.sul, leste: row.leste, norte: row.norte };
  return {
    origem: row.origem,
    nome: row.nome,
    tipo: row.tipo,
    vetorial: row.tipo === 'mvt',
    minZoom: row.min_zoom,
    maxZoom: row.max_zoom,
    limites,
    tamanho: row.tamanho,
    blocos: row.blocos,
    versao: row.versao,
    atribuicao: row.atribuicao,
    camadas: row.camadas,
    zonasDescobertas: zonasDescobertas(limites, zonas),
  };
}
