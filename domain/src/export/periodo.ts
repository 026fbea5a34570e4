// The days a supervisor asks for (the Extrator, the reports, getByData / getByPeriodo): YYYY-MM-DD, local days.
import { z } from '../zod.ts';

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar day written YYYY-MM-DD (2026-02-30 is refused, not rolled over). */
export function isDay(value: string): boolean {
  if (!ISO_DAY.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

export const daySchema = (label: string) =>
  z.string({ error: `${label} inválida.` }).refine(isDay, `${label} inválida: use AAAA-MM-DD.`);

/** An optional range of days (both ends inclusive) and technician. */
export const periodoSchema = z
  .object({
    dataInicio: daySchema('Data inicial').optional(),
    dataFim: daySchema('Data final').optional(),
    tecnico: z.uuid({ error: 'Técnico inválido.' }).optional(),
  })
  .refine((q) => !q.dataInicio || !q.dataFim || q.dataInicio <= q.dataFim, {
    message: 'A data inicial deve ser anterior ou igual à data final.',
    path: ['dataInicio'],
  });
export type Periodo = z.infer<typeof periodoSchema>;
