// What the supervisor map reads (SPEC.md 2 'Supervisor', 3 'Map entities', 7): a compact form of every point
// of a project, so 100,000 points travel and cluster without the full records; a popup fetches its record.

/** Status bits of a point in `CamadaCompacta.status`. */
export const STATUS = {
  /** Collected (IP green filled; BDGD filled). */
  coletado: 1,
  /** Loaded from the back office's file (IP red when also collected on the device's map). */
  carregadoBackoffice: 2,
  /** Collected on more than one device: the server keeps both (README 'Points'). */
  conflito: 4,
  /** Has at least one automatic quality flag (issue 24). */
  sinalizado: 8,
  /** Review state (issue 24): neither bit is pendente. */
  aprovado: 16,
  reprovado: 32,
} as const;

/**
 * One character per point in `CamadaCompacta.status`: its STATUS bits (0..63) as the character at that place, so
 * the bits of before issue 24 (0..7) stay the digits '0'..'7'. No character of it needs escaping in JSON.
 */
export const STATUS_DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_';

/** The STATUS bits of one character of `CamadaCompacta.status`, or -1 for a character that is none. */
export function statusOfDigit(digit: string): number {
  return digit.length === 1 ? STATUS_DIGITS.indexOf(digit) : -1;
}

/** The answers' types are their schemas' (domain/src/api/mapa.ts). */
export type { CamadaCompacta, EstatisticaItem, MapaProjeto, PontoEvento } from '../api/mapa.ts';

/** Converts a 22-character base64url id of `CamadaCompacta.ids` back to the uuid the routes take. */
export function uuidFromCompact(compact: string): string {
  const base64 = compact.replace(/-/g, '+').replace(/_/g, '/') + '==';
  const binary = atob(base64);
  let hex = '';
  for (let i = 0; i < binary.length; i++) hex += binary.charCodeAt(i).toString(16).padStart(2, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
