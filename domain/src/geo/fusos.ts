// The UTM zones of Brazil on SIRGAS 2000 (18S–25S): what a project's 'Fuso' may be. Apart from utm.ts, which
// converts with proj4, so the forms and schemas that only name a zone do not load proj4 (37 KB gzip) with them.
export const FUSOS = [18, 19, 20, 21, 22, 23, 24, 25] as const;
export type Fuso = (typeof FUSOS)[number];

export function isFuso(value: number): value is Fuso {
  return (FUSOS as readonly number[]).includes(value);
}
