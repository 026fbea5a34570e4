// SQL for collected records of every flow and their photo rows.
import type { Queryable } from '../../db/database.ts';

export interface NewRegistro {
  id: string;
  fluxo: string;
  projeto: string;
  tecnico: string;
  lat: number;
  lng: number;
  dataHora: number;
  dados: Record<string, unknown>;
}

export interface NewFoto {
  slot: number;
  hash: string;
  size: number;
  mediaType: string;
}

export interface RegistroRow {
  id: string;
  fluxo: string;
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
  dados: Record<string, unknown>;
  fotos: number[];
}

const SELECT = `SELECT r.id, r.fluxo, r.projeto, p.nome AS projeto_nome, p.cliente, r.zona, r.tecnico,
    NULLIF(trim(u.first_name || ' ' || u.last_name), '') AS tecnico_nome,
    r.lat, r.lng, r.data_hora, r.sincronizado_em, r.coletado, r.adicionado_app, r.carregado_backoffice, r.dados,
    COALESCE((SELECT array_agg(f.slot ORDER BY f.slot) FROM fotos f WHERE f.registro = r.id), '{}') AS fotos
  FROM registros r
  JOIN projetos p ON p.id = r.projeto
  LEFT JOIN usuarios u ON u.id = r.tecnico`;

/**
 * Writes a record collected in the field, or does nothing when that id is already stored (a replay after a
 * lost response). Returns whether this call created it.
 */
export async function insertRegistro(tx: Queryable, registro: NewRegistro): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO registros (id, fluxo, projeto, zona, tecnico, lat, lng, geom, data_hora, sincronizado_em,
       coletado, adicionado_app, carregado_backoffice, dados)
     SELECT $1, $2, $3,
       (SELECT z.id FROM zonas z
        WHERE z.projeto = $3 AND ST_Intersects(z.geom, ST_SetSRID(ST_MakePoint($6, $5), 4326))
        ORDER BY z.id LIMIT 1),
       $4, $5, $6, ST_SetSRID(ST_MakePoint($6, $5), 4326), to_timestamp($7::double precision / 1000), now(),
       true, true, false, $8
     ON CONFLICT (id) DO NOTHING
     RETURNING id`,
    [
      registro.id,
      registro.fluxo,
      registro.projeto,
      registro.tecnico,
      registro.lat,
      registro.lng,
      registro.dataHora,
      registro.dados,
    ],
  );
  return rows.length > 0;
}

export async function insertFotos(tx: Queryable, registro: string, fotos: NewFoto[]): Promise<void> {
  if (fotos.length === 0) return;
  await tx.query(
    `INSERT INTO fotos (registro, slot, hash, size, media_type)
     SELECT $1, f.slot, f.hash, f.size, f."mediaType"
     FROM jsonb_to_recordset($2::jsonb) AS f(slot smallint, hash text, size integer, "mediaType" text)
     ON CONFLICT (registro, slot) DO NOTHING`,
    [registro, JSON.stringify(fotos)],
  );
}

export async function getRegistro(db: Queryable, id: string): Promise<RegistroRow | undefined> {
  return (await db.query<RegistroRow>(`${SELECT} WHERE r.id = $1`, [id]))[0];
}

export async function listRegistrosByZona(
  db: Queryable,
  fluxo: string,
  zona: string,
): Promise<RegistroRow[]> {
  return db.query<RegistroRow>(`${SELECT} WHERE r.zona = $1 AND r.fluxo = $2 ORDER BY r.data_hora, r.id`, [
    zona,
    fluxo,
  ]);
}

export async function listRegistrosByProjeto(
  db: Queryable,
  fluxo: string,
  projeto: string,
): Promise<RegistroRow[]> {
  return db.query<RegistroRow>(`${SELECT} WHERE r.projeto = $1 AND r.fluxo = $2 ORDER BY r.data_hora, r.id`, [
    projeto,
    fluxo,
  ]);
}

export async function getFoto(
  db: Queryable,
  registro: string,
  slot: number,
): Promise<{ hash: string; media_type: string; size: number } | undefined> {
  return (
    await db.query<{ hash: string; media_type: string; size: number }>(
      'SELECT hash, media_type, size FROM fotos WHERE registro = $1 AND slot = $2',
      [registro, slot],
    )
  )[0];
}

/** The zone and the project a technician must hold one zone of, for their reads and uploads. */
export async function userHasZoneIn(db: Queryable, userId: string, projetoId: string): Promise<boolean> {
  const rows = await db.query(
    `SELECT 1 FROM usuario_zonas uz JOIN zonas z ON z.id = uz.zona WHERE uz.usuario = $1 AND z.projeto = $2 LIMIT 1`,
    [userId, projetoId],
  );
  return rows.length > 0;
}

export async function userHasZone(db: Queryable, userId: string, zonaId: string): Promise<boolean> {
  return (
    (await db.query('SELECT 1 FROM usuario_zonas WHERE usuario = $1 AND zona = $2', [userId, zonaId]))
      .length > 0
  );
}
