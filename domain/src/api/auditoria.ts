// /api/auditoria?usuario=&inicio=&fim=&pagina=&tamanho=: the audit log of back-office writes, newest first, for the
// administrador only. inicio and fim are days (YYYY-MM-DD, both inclusive) in FUSO_HORARIO, as the reports'.
import { daySchema } from '../export/periodo.ts';
import { z } from '../zod.ts';
import { endpoint, uuid } from './contract.ts';

const PAGE_MAX = 200;

/** An empty parameter (an unset select or date input) means no filter. */
const optional = <S extends z.ZodType>(schema: S) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

const filterSchema = z.object({
  usuario: optional(z.uuid({ error: 'Usuário inválido.' })),
  inicio: optional(daySchema('Data inicial')),
  fim: optional(daySchema('Data final')),
  pagina: optional(
    z.coerce
      .number({ error: 'Página inválida.' })
      .int('Página inválida.')
      .min(0, 'Página inválida.')
      .max(1_000_000, 'Página inválida.'),
  ),
  tamanho: optional(
    z.coerce
      .number({ error: 'Tamanho de página inválido.' })
      .int('Tamanho de página inválido.')
      .min(1, 'Tamanho de página inválido.')
      .max(PAGE_MAX, `O tamanho de página máximo é ${PAGE_MAX}.`),
  ),
});

const valores = z.looseObject({}).nullable().describe('Os valores do objeto (nomes no lugar de ids).');

const entradaAnswer = z.object({
  _id: z.string(),
  em: z.iso.datetime(),
  usuario: z.object({ _id: uuid.nullable(), nome: z.string() }).describe('Quem alterou.'),
  entidade: z.string(),
  entidadeId: z.string(),
  acao: z.enum(['criar', 'alterar', 'excluir', 'importar', 'recusar']),
  antes: valores,
  depois: valores,
});

export const listAuditoria = endpoint({
  method: 'GET',
  path: '/api/auditoria',
  tag: 'auditoria',
  summary: 'A trilha de auditoria, filtrada.',
  allow: ['administrador'],
  query: filterSchema,
  ok: {
    status: 200,
    description: 'Os eventos de auditoria, do mais recente ao mais antigo.',
    answer: z.object({
      total: z.number().int(),
      pagina: z.number().int(),
      tamanho: z.number().int(),
      entradas: z.array(entradaAnswer),
    }),
  },
});

/** One write of the log. */
export type Entrada = z.output<typeof entradaAnswer>;
