// Gravar of a record chosen from a list (LPT Agiltec, SPEC.md sections 4, 5): it has no point on a map, so the
// form takes the GPS position when the technician presses 'Atualizar localização', once per collection.
import type { ChosenPoint } from './MapStep';

export const REFRESH_LOCATION = 'Atualize a localização antes de gravar.';

export interface RefreshedLocation {
  /** The position taken by the last 'Atualizar localização' of this collection (null: none yet). */
  point: ChosenPoint | null;
  /** 'Atualizar localização' was pressed since the record was opened. */
  refreshed: boolean;
}

/** Save needs the coordinates known and a refreshed geolocation. */
export function canSaveAtRefreshedLocation({ point, refreshed }: RefreshedLocation): boolean {
  return refreshed && point !== null && Number.isFinite(point.lat) && Number.isFinite(point.lng);
}
