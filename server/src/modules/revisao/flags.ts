// The automatic quality flags of issue 24, as one SQL expression the upload's own statement evaluates (never a
// per-record job): each rule a row of a UNION, the flags a jsonb array [{codigo, valor}] in FLAG_CODIGOS' order.
// Thresholds come from the record's project row; distances are PostGIS's ST_DistanceSphere, in metres.
import { FOTOS_ESPERADAS, REGRAS } from '@novus/domain/revisao';
import type { PhotoExif } from '../../storage/photo-exif.ts';

/** What the flags need besides the record's row: what the upload said, and who sent it. */
export interface Qualidade {
  /** GPS accuracy in metres; undefined when the device recorded none. */
  precisao: number | undefined;
  /** How many photos the record has. */
  fotos: number;
  /** Each photo's EXIF time and position, where it keeps them. */
  exif: PhotoExif[];
  /** The technician's zones: a record outside all of them is flagged; null for a sender without zones. */
  zonas: string[] | null;
}

/** Whether the photos' EXIF rules are part of the statement: only when a photo kept EXIF (most uploads have none). */
export const comExif = (q: Qualidade) => q.exif.length > 0;

/** The parameters Qualidade adds to a statement, in flagsSql's order: three, and the EXIF list when comExif. */
export function qualidadeParams(q: Qualidade): unknown[] {
  return [q.precisao ?? null, q.fotos, q.zonas, ...(comExif(q) ? [JSON.stringify(q.exif)] : [])];
}

/** SQL expressions (columns, parameters) of the record the flags are computed for. */
export interface FlagsOf {
  id: string;
  fluxo: string;
  projeto: string;
  tecnico: string;
  lat: string;
  lng: string;
  /** ms since 1970. */
  dataHora: string;
  /** The index of qualidadeParams' first parameter ($n). */
  first: number;
  /** With the EXIF rules (and their parameter): comExif of the upload. */
  exif: boolean;
}

/** A jsonb array of the record's flags ('[]' when none), as a scalar subquery. */
export function flagsSql(r: FlagsOf): string {
  const [precisao, fotos, zonas, exif] = [0, 1, 2, 3].map((i) => `$${r.first + i}`);
  const lat = `${r.lat}::double precision`;
  const lng = `${r.lng}::double precision`;
  const ms = `${r.dataHora}::double precision`;
  return `(SELECT COALESCE(jsonb_agg(jsonb_build_object('codigo', f.codigo, 'valor', f.valor) ORDER BY f.ordem), '[]'::jsonb)
  FROM projetos pr
  CROSS JOIN LATERAL (SELECT ST_SetSRID(ST_MakePoint(${lng}, ${lat}), 4326) AS pt,
                             to_timestamp(${ms} / 1000) AS t) x
  CROSS JOIN LATERAL (
    SELECT 1 AS ordem, 'precisao_baixa'::text AS codigo, round(${precisao}::numeric, 1) AS valor
      WHERE ${precisao}::double precision > pr.precisao_maxima
    UNION ALL SELECT 2, 'sem_precisao', NULL WHERE ${precisao}::double precision IS NULL
    UNION ALL SELECT 3, 'fora_da_zona', NULL
      WHERE ${zonas}::uuid[] IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM zonas z WHERE z.id = ANY(${zonas}::uuid[]) AND z.projeto = pr.id AND ST_Intersects(z.geom, x.pt))
    UNION ALL SELECT 4, 'duplicata', round(min(d.m)::numeric, 1)
      -- The records in a box of the distance (generous east-west), found on the GiST index alone: OFFSET 0 keeps
      -- the box apart from the other conditions, so no plan (the prepared statement's generic one included) walks
      -- the whole project by its id instead. At most 16 (a crowd on one spot costs no more); metres decide.
      FROM (SELECT ST_DistanceSphere(o.geom, x.pt) AS m
            FROM (SELECT c.id, c.projeto, c.fluxo, c.coletado, c.conflito_de, c.geom FROM registros c
                  WHERE c.geom && ST_Expand(x.pt, pr.distancia_duplicata / 111000.0 / greatest(cos(radians(${lat})), 0.01))
                  OFFSET 0) o
            WHERE o.projeto = pr.id AND o.fluxo = ${r.fluxo} AND o.id <> ${r.id} AND o.coletado
              AND o.conflito_de IS NULL
            LIMIT 16) d
      HAVING min(d.m) <= pr.distancia_duplicata
    UNION ALL SELECT 5, 'poucas_fotos', ${fotos}::numeric WHERE ${fotos}::int < ${FOTOS_ESPERADAS}
${r.exif ? exifSql(exif ?? '', ms) : ''}    UNION ALL SELECT 8, 'ritmo', round(ST_DistanceSphere(p.geom, x.pt)::numeric)
      FROM (SELECT o.geom, o.data_hora FROM registros o
            WHERE o.tecnico = ${r.tecnico} AND o.fluxo = ${r.fluxo} AND o.id <> ${r.id} AND o.data_hora <= x.t
            ORDER BY o.data_hora DESC LIMIT 1) p
      WHERE p.data_hora > x.t - interval '${REGRAS.ritmoSegundos} seconds'
        AND ST_DistanceSphere(p.geom, x.pt) > ${REGRAS.ritmoMetros}
  ) f
  WHERE pr.id = ${r.projeto})`;
}

/** What an upload's flags need, from what it carried; `zonas` as Qualidade's. */
export function qualidadeDe(
  precisao: number | undefined,
  fotos: readonly { exif?: PhotoExif }[],
  zonas: string[] | null,
): Qualidade {
  return {
    precisao,
    fotos: fotos.length,
    exif: fotos.flatMap((foto) => (foto.exif ? [foto.exif] : [])),
    zonas,
  };
}

/** SINALIZACOES=0 turns the flags off (to measure what they cost); on by default. */
export function sinalizacoesLigadas(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.SINALIZACOES !== '0';
}

/** The photo-evidence rules on the EXIF list parameter `exif` (UNION ALL branches), `ms` the record's time. */
function exifSql(exif: string, ms: string): string {
  return `    UNION ALL SELECT 6, 'foto_hora', round(max(abs(e."tomadaEm" - ${ms})) / 60000.0)
      FROM jsonb_to_recordset(${exif}::jsonb) AS e("tomadaEm" double precision, lat double precision, lng double precision)
      HAVING max(abs(e."tomadaEm" - ${ms})) > ${REGRAS.fotoHoraMinutos * 60_000}
    UNION ALL SELECT 7, 'foto_local', round(max(ST_DistanceSphere(ST_SetSRID(ST_MakePoint(e.lng, e.lat), 4326), x.pt))::numeric)
      FROM jsonb_to_recordset(${exif}::jsonb) AS e("tomadaEm" double precision, lat double precision, lng double precision)
      WHERE e.lat IS NOT NULL AND e.lng IS NOT NULL
      HAVING max(ST_DistanceSphere(ST_SetSRID(ST_MakePoint(e.lng, e.lat), 4326), x.pt)) > ${REGRAS.fotoLocalMetros}
`;
}
