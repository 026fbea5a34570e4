// What the supervisor map reads (SPEC.md 2 'Supervisor', 3 'Map entities', 7): a compact form of every point
// of a project, so 100,000 points travel and cluster without the full records; a popup fetches its record.
import type { Fluxo } from '../flows/keys.ts';

/** Status bits of a point in `CamadaCompacta.status`. */
export const STATUS = {
  /** Collected (IP green filled; BDGD filled). */
  coletado: 1,
  /** Loaded from the back office's file (IP red when also collected on the device's map). */
  carregadoBackoffice: 2,
  /** Collected on more than one device: the server keeps both (README 'Points'). */
  conflito: 4,
} as const;

/**
 * The points of one flow: `ids` is the concatenation of each record's id as 22 characters of base64url (its 16
 * bytes), `coords` holds latitude and longitude of each point in millionths of a degree, interleaved
 * ([lat0, lng0, lat1, lng1, ...]), `status` one character per point, the STATUS bits as a digit '0'..'7'.
 * Point i: id `ids.slice(22 * i, 22 * i + 22)`, lat `coords[2 * i] / 1e6`, lng `coords[2 * i + 1] / 1e6`.
 */
export interface CamadaCompacta {
  fluxo: Fluxo;
  ids: string;
  coords: number[];
  status: string;
}

/**
 * GET /api/projeto/{projetoId}/mapa?tecnico=&dataInicio=&dataFim= (filters optional; dates YYYY-MM-DD, local
 * days, inclusive): every point with coordinates of the project (collected or not; competing collections are not
 * points of their own), layer by layer, plus what the filters offer.
 */
export interface MapaProjeto {
  projeto: { id: string; nome: string };
  zonas: { _id: string; label: string; poligono: { lat: number; lng: number }[] }[];
  camadas: CamadaCompacta[];
  /** Technicians with records in the project, for the filter. */
  tecnicos: { id: string; nome: string }[];
}

/** GET /api/projeto/{nome}/estatistica (SPEC.md 7): records per flow, `_id` the flow key. Same filters. */
export interface EstatisticaItem {
  _id: string;
  count: number;
}

/**
 * GET /api/projeto/{projetoId}/mapa/eventos: Server-Sent Events. Each record stored or collected in the project
 * (by any server process) sends an event named `ponto` whose data is this JSON; the map adds or updates the
 * point and refreshes the statistics. A comment line is sent every 25 s to keep proxies from closing the stream.
 */
export interface PontoEvento {
  fluxo: Fluxo;
  /** The record's id as a uuid (not base64url). */
  id: string;
  lat: number;
  lng: number;
  /** STATUS bits. */
  status: number;
  /** The technician of the point's current collection (its name). */
  tecnico: string | null;
  /** Epoch ms of the collection. */
  dataHora: number | null;
}

/** Converts a 22-character base64url id of `CamadaCompacta.ids` back to the uuid the routes take. */
export function uuidFromCompact(compact: string): string {
  const base64 = compact.replace(/-/g, '+').replace(/_/g, '/') + '==';
  const binary = atob(base64);
  let hex = '';
  for (let i = 0; i < binary.length; i++) hex += binary.charCodeAt(i).toString(16).padStart(2, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
