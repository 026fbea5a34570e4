// The change feed (issue 27): every field record of a project created or changed since a cursor, in a stable order,
// for the systems that read Novus (the externo) and the back office. One entry per change, so a client that follows
// `proximo` from the start reads each record once per change, also while uploads arrive.
import { FLUXOS } from '../flows/keys.ts';
import { UUID } from '../ids.ts';
import { z } from '../zod.ts';
import { endpoint } from './contract.ts';
import { getRegistro } from './registros.ts';

export const EVENTOS = ['registro criado', 'registro alterado', 'revisão'] as const;
export type Evento = (typeof EVENTOS)[number];

export const LIMITE_PADRAO = 1000;
export const LIMITE_MAXIMO = 5000;

export const ALTERACOES_TEXTS = {
  projeto: 'Informe o projeto.',
  projetoInvalido: 'Identificador de projeto inválido.',
  cursor:
    'Cursor inválido: use o valor de proximo de uma resposta anterior (ou nenhum, para ler desde o início).',
  limite: `O limite deve ser um número inteiro de 1 a ${LIMITE_MAXIMO}.`,
} as const;

/** The largest bigserial: a cursor past it names no row. */
const MAX_ID = 2n ** 63n - 1n;

/**
 * The cursor is the last change read, as base64url: opaque to clients (they pass back what they got), and the
 * same text for the same position on every call and every server.
 */
export function cursorOf(id: string): string {
  return btoa(id).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The change id a cursor names ('0' before the first), or undefined when it is not one this server made. */
export function idOfCursor(cursor: string): string | undefined {
  if (!/^[A-Za-z0-9_-]{1,28}$/.test(cursor)) return undefined;
  let id: string;
  try {
    id = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return undefined;
  }
  if (!/^(0|[1-9][0-9]{0,18})$/.test(id) || BigInt(id) > MAX_ID) return undefined;
  return id;
}

export const alteracoesQuery = z.object({
  projeto: z
    .string({ error: ALTERACOES_TEXTS.projeto })
    .regex(UUID, ALTERACOES_TEXTS.projetoInvalido)
    .transform((value) => value.toLowerCase()),
  desde: z
    .string({ error: ALTERACOES_TEXTS.cursor })
    .optional()
    .transform((cursor, ctx) => {
      if (cursor === undefined || cursor === '') return '0';
      const id = idOfCursor(cursor);
      if (id === undefined) {
        ctx.addIssue({ code: 'custom', message: ALTERACOES_TEXTS.cursor });
        return z.NEVER;
      }
      return id;
    })
    .describe('O cursor: o `proximo` da resposta anterior; sem ele, desde o início.'),
  limite: z.coerce
    .number({ error: ALTERACOES_TEXTS.limite })
    .int(ALTERACOES_TEXTS.limite)
    .min(1, ALTERACOES_TEXTS.limite)
    .max(LIMITE_MAXIMO, ALTERACOES_TEXTS.limite)
    .default(LIMITE_PADRAO)
    .describe(`Quantas alterações no máximo (padrão ${LIMITE_PADRAO}, até ${LIMITE_MAXIMO}).`),
});

export const alteracaoAnswer = z.object({
  cursor: z.string().describe('O cursor logo depois desta alteração (para retomar dela).'),
  evento: z.enum(EVENTOS),
  em: z.number().describe('Quando o registro mudou, em milissegundos desde 1970 (UTC).'),
  fluxo: z.enum(FLUXOS),
  versao: z.number().int().nullable().describe('A versão do registro que esta alteração gravou.'),
  registro: getRegistro.ok.answer.describe(
    'O registro como está agora, como GET /api/registro/{id} o responde.',
  ),
});
export type Alteracao = z.output<typeof alteracaoAnswer>;

export const listAlteracoes = endpoint({
  method: 'GET',
  path: '/api/alteracoes',
  tag: 'alterações',
  summary: 'Os registros criados ou alterados de um projeto desde um cursor, em ordem estável.',
  description:
    'Uma entrada por alteração (registro criado, registro alterado, revisão): quem segue `proximo` desde o início ' +
    'lê cada registro uma vez por alteração, mesmo com envios chegando ao mesmo tempo. Uma alteração aparece ' +
    'quando todas as transações mais antigas que a dela terminaram. `fim`: nada mais a ler por ora.',
  allow: ['administrador', 'supervisor', 'interpretador', 'externo'],
  query: alteracoesQuery,
  ok: {
    status: 200,
    description: 'Uma página de alterações.',
    answer: z.object({
      alteracoes: z.array(alteracaoAnswer),
      proximo: z.string().describe('O cursor para a próxima chamada (o mesmo quando não havia nada novo).'),
      fim: z.boolean().describe('Verdadeiro quando não há mais alterações a ler agora.'),
    }),
  },
  errors: [404],
});
