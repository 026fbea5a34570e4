// SQL of the supervisor map: the compact form of a project's points, built in the database as text (one row per
// flow, no per-point object in Node), and the statistics.
import { FUSO_HORARIO } from '@novus/domain/export/columns';
import type { Fluxo } from '@novus/domain/flows/keys';
import type { Queryable } from '../../db/database.ts';

export interface MapaFiltro {
  projeto: string;
  tecnico?: string;
  dataInicio?: string;
  dataFim?: string;
  /** A technician sees only the points of their zones. */
  zonas?: readonly string[];
}

function where(filtro: MapaFiltro, params: unknown[]): string {
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const conditions = [`r.projeto = ${param(filtro.projeto)}`, 'r.conflito_de IS NULL'];
  if (filtro.tecnico) conditions.push(`r.tecnico = ${param(filtro.tecnico)}`);
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
  if (filtro.zonas) conditions.push(`r.zona = ANY(${param(filtro.zonas)}::uuid[])`);
  return conditions.join(' AND ');
}

/** The STATUS bits of domain/mapa/api.ts, in SQL. */
const STATUS_SQL = `((CASE WHEN r.coletado THEN 1 ELSE 0 END)
  + (CASE WHEN r.carregado_backoffice THEN 2 ELSE 0 END)
  + (CASE WHEN EXISTS (SELECT 1 FROM registros c WHERE c.conflito_de = r.id) THEN 4 ELSE 0 END))`;

export interface CamadaRow {
  fluxo: Fluxo;
  ids: string;
  /** "lat,lng,lat,lng,..." in millionths of a degree: the JSON array's inside. */
  coords: string;
  status: string;
}

/** One row per flow with its points' ids (base64url of the 16 bytes), coordinates and status digits. */
export async function camadas(db: Queryable, filtro: MapaFiltro): Promise<CamadaRow[]> {
  const params: unknown[] = [];
  const condition = where(filtro, params);
  return db.query<CamadaRow>(
    `SELECT fluxo,
        string_agg(id64, '' ORDER BY id) AS ids,
        string_agg(lat::text || ',' || lng::text, ',' ORDER BY id) AS coords,
        string_agg(status::text, '' ORDER BY id) AS status
      FROM (
        SELECT r.fluxo, r.id,
          rtrim(translate(encode(uuid_send(r.id), 'base64'), '+/', '-_'), '=') AS id64,
          round(r.lat * 1000000)::int AS lat, round(r.lng * 1000000)::int AS lng,
          ${STATUS_SQL} AS status
        FROM registros r
        WHERE ${condition} AND r.lat IS NOT NULL AND r.lng IS NOT NULL
      ) pontos
      GROUP BY fluxo
      ORDER BY fluxo`,
    params,
  );
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
    `SELECT u.id, trim(u.first_name || ' ' || u.last_name) AS nome FROM usuarios u
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
