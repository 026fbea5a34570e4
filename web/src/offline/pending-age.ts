// The home's 24-hour warning (issue 25): a record that has waited on the phone for more than a day is a record a
// lost or wiped phone would take with it.

export const PENDING_OLD_MS = 24 * 60 * 60 * 1000;

export const PENDING_OLD_TEXT = 'Há registros não sincronizados há mais de 24 horas';

/**
 * Whether the oldest pending record of any flow has waited strictly more than 24 hours. Each entry is a flow's
 * oldest pending record (dataHora, ms); null when the flow has none, and undefined from banners cached by an older
 * version, which did not know it. A phone whose clock went back never warns (the age is negative).
 */
export function hasOldPending(oldests: readonly (number | null | undefined)[], now: number): boolean {
  return oldests.some((oldest) => typeof oldest === 'number' && now - oldest > PENDING_OLD_MS);
}
