// Webhooks (issue 27): an administrador subscribes a URL to a project's changes (registro criado, registro alterado,
// revisão); each change is POSTed to it signed with HMAC-SHA256, retried with backoff for 24 hours, and logged per
// webhook, where 'Reenviar' queues one delivery again.
import { z } from '../zod.ts';
import { deletedAnswer, endpoint, uuid, uuidParam } from './contract.ts';

/** The changes a webhook may hear, as alteracoes names them. */
export const EVENTOS_WEBHOOK = ['registro criado', 'registro alterado', 'revisão'] as const;
export type EventoWebhook = (typeof EVENTOS_WEBHOOK)[number];

export const STATUS_ENTREGA = ['pendente', 'entregue', 'falhou'] as const;
export type StatusEntrega = (typeof STATUS_ENTREGA)[number];

/** A secret the administrador types must be at least this long; one is made when none is given. */
export const SEGREDO_MIN = 16;

/** The deliveries a log answers at most. */
export const ENTREGAS_MAX = 200;

export const URL_INVALIDA = 'Informe a URL do webhook (http ou https).';

const webhookAnswer = z
  .object({
    _id: uuid,
    projeto: uuid,
    url: z.string(),
    eventos: z.array(z.enum(EVENTOS_WEBHOOK)),
    /** The secret's last characters only: it is shown whole once, in the answer that created it. */
    segredo: z.string().describe('O segredo mascarado (só os últimos caracteres).'),
    ativo: z.boolean(),
    criadoEm: z.iso.datetime(),
    criadoPor: z.string().nullable().describe('Quem cadastrou.'),
    pendentes: z.number().int().describe('Entregas ainda por fazer.'),
    falhas: z.number().int().describe('Entregas que falharam depois de 24 horas de tentativas.'),
    ultimaEntrega: z.iso.datetime().nullable().describe('Quando uma entrega foi aceita pela última vez.'),
  })
  .describe('Webhook de um projeto');
export type Webhook = z.output<typeof webhookAnswer>;

const entregaAnswer = z
  .object({
    _id: uuid.describe('O id que o receptor recebe, o mesmo em todas as tentativas.'),
    evento: z.enum(EVENTOS_WEBHOOK),
    registro: uuid,
    versao: z.number().int().nullable(),
    em: z.iso.datetime().describe('Quando a alteração aconteceu.'),
    status: z.enum(STATUS_ENTREGA),
    tentativas: z.number().int(),
    proximaTentativa: z.iso.datetime().nullable().describe('Quando será tentada de novo (pendentes).'),
    ultimaTentativa: z.iso.datetime().nullable(),
    ultimoStatusHttp: z.number().int().nullable(),
    ultimoErro: z.string().nullable(),
    entregueEm: z.iso.datetime().nullable(),
  })
  .describe('Entrega de um webhook');
export type Entrega = z.output<typeof entregaAnswer>;

const projetoParams = z.object({ id: uuidParam('Identificador de projeto') });
const webhookParams = z.object({ id: uuidParam('Identificador de webhook') });

export const listWebhooks = endpoint({
  method: 'GET',
  path: '/api/projeto/:id/webhooks',
  tag: 'webhooks',
  summary: 'Os webhooks do projeto, com a contagem de entregas pendentes e falhas.',
  allow: ['administrador'],
  params: projetoParams,
  ok: { status: 200, description: 'Os webhooks.', answer: z.array(webhookAnswer) },
});

export const createWebhookBody = z.object({
  url: z
    .url({ protocol: /^https?$/, error: URL_INVALIDA })
    .max(2000, 'URL longa demais.')
    .refine(
      (url) => !new URL(url).username && !new URL(url).password,
      'A URL não pode levar usuário e senha.',
    ),
  eventos: z
    .array(z.enum(EVENTOS_WEBHOOK, { error: 'Evento inválido.' }), { error: 'Escolha ao menos um evento.' })
    .min(1, 'Escolha ao menos um evento.')
    .transform((eventos) => [...new Set(eventos)]),
  segredo: z
    .string()
    .trim()
    .max(200, 'Segredo longo demais.')
    .refine((segredo) => segredo === '' || segredo.length >= SEGREDO_MIN, {
      message: `O segredo deve ter ao menos ${SEGREDO_MIN} caracteres (ou deixe em branco para gerar um).`,
    })
    .optional(),
});

export const createWebhook = endpoint({
  method: 'POST',
  path: '/api/projeto/:id/webhooks',
  tag: 'webhooks',
  summary: 'Cadastra um webhook no projeto: URL, eventos e segredo (gerado quando não informado).',
  description:
    'A URL não pode apontar para um endereço interno (local, de rede privada ou link-local) a menos que o ' +
    'servidor rode com WEBHOOKS_ALLOW_PRIVATE=1. O segredo volta inteiro só nesta resposta.',
  allow: ['administrador'],
  params: projetoParams,
  body: createWebhookBody,
  ok: {
    status: 201,
    description: 'O webhook cadastrado, com o segredo inteiro (única vez).',
    answer: webhookAnswer.extend({ segredo: z.string().describe('O segredo inteiro: guarde-o agora.') }),
  },
});

export const deleteWebhook = endpoint({
  method: 'DELETE',
  path: '/api/webhook/:id',
  tag: 'webhooks',
  summary: 'Exclui um webhook e o registro das suas entregas.',
  allow: ['administrador'],
  params: webhookParams,
  ok: { status: 200, description: 'Excluído.', answer: deletedAnswer },
});

export const listEntregas = endpoint({
  method: 'GET',
  path: '/api/webhook/:id/entregas',
  tag: 'webhooks',
  summary: `As entregas de um webhook, das mais recentes às mais antigas (até ${ENTREGAS_MAX}).`,
  allow: ['administrador'],
  params: webhookParams,
  query: z.object({ status: z.enum(STATUS_ENTREGA, { error: 'Status inválido.' }).optional() }),
  ok: { status: 200, description: 'As entregas.', answer: z.array(entregaAnswer) },
});

export const reenviarEntrega = endpoint({
  method: 'POST',
  path: '/api/webhook/:id/entregas/:entrega/reenviar',
  tag: 'webhooks',
  summary: 'Reenviar: põe uma entrega na fila de novo (com o mesmo id), com mais 24 horas de tentativas.',
  allow: ['administrador'],
  params: z.object({
    id: uuidParam('Identificador de webhook'),
    entrega: uuidParam('Identificador de entrega'),
  }),
  ok: { status: 200, description: 'A entrega, de volta na fila.', answer: entregaAnswer },
});
