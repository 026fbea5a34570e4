// SQL pieces several query modules share, written once: a user's name, and the local time and days (FUSO_HORARIO,
// the days people mean when they pick a date) of a stored instant. Arguments are SQL expressions (columns, $n).
import { FUSO_HORARIO } from '@novus/domain/export/columns';

/** The name of the `usuarios` row called `alias`: first and last name, NULL when both are empty. */
export const userName = (alias: string) =>
  `NULLIF(trim(${alias}.first_name || ' ' || ${alias}.last_name), '')`;

/** An instant (timestamptz) as the wall-clock time in FUSO_HORARIO. */
export const localTime = (instant: string) => `(${instant} AT TIME ZONE '${FUSO_HORARIO}')`;

/** The local day (a date) of an instant. */
export const localDay = (instant: string) => `${localTime(instant)}::date`;

/** `instant` at or after the start of the local day `day` (YYYY-MM-DD). */
export const fromLocalDay = (instant: string, day: string) =>
  `${instant} >= (${day}::date::timestamp AT TIME ZONE '${FUSO_HORARIO}')`;

/** `instant` before the end of the local day `day`: with fromLocalDay, a range of days both inclusive. */
export const untilLocalDay = (instant: string, day: string) =>
  `${instant} < ((${day}::date + 1)::timestamp AT TIME ZONE '${FUSO_HORARIO}')`;
