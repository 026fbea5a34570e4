// A client of Novus (the utility or telecom company whose projects are surveyed).
import { z } from './zod.ts';

export const clienteInputSchema = z.object({
  nome: z
    .string({ error: 'O nome do cliente é obrigatório.' })
    .trim()
    .min(1, 'O nome do cliente é obrigatório.')
    .max(200, 'O nome do cliente deve ter no máximo 200 caracteres.'),
});
export type ClienteInput = z.infer<typeof clienteInputSchema>;

export interface Cliente {
  _id: string;
  nome: string;
}
