// The decimal separator of a CSV export (`?decimal=` on every CSV route, SPEC.md 9): a comma by default, since a
// spreadsheet in pt-BR reads '4.5' as text; a point for GIS tools and parsers. KML always has points.
import { z } from '../zod.ts';

export const SEPARADORES_DECIMAIS = { virgula: ',', ponto: '.' } as const;
export type SeparadorDecimal = keyof typeof SEPARADORES_DECIMAIS;

export const decimalSchema = z.object({
  decimal: z
    .enum(['virgula', 'ponto'], { error: 'Separador decimal inválido: use virgula ou ponto.' })
    .default('virgula')
    .describe(
      'Separador decimal do CSV: virgula (padrão, planilhas em pt-BR) ou ponto (SIG e outros programas).',
    ),
});
