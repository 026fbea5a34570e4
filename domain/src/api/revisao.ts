// Quality control (issue 24): the review list of a project's records with their automatic flags, a reviewer's
// decision (one record or everything a filter shows), a record's history, the project's thresholds, and the
// corrections a technician's device fetches with each sync.
import { daySchema } from '../export/periodo.ts';
import { FLUXOS } from '../flows/keys.ts';
import {
  ESTADOS_REVISAO,
  FLAG_CODIGOS,
  REVISAO_POR_PAGINA,
  type EstadoRevisao,
  type FlagCodigo,
} from '../revisao.ts';
import { z } from '../zod.ts';
import { endpoint, uuid, uuidParam } from './contract.ts';

export { ESTADOS_REVISAO, FLAG_CODIGOS, REVISAO_POR_PAGINA, type EstadoRevisao, type FlagCodigo };

const epochMs = z.number().describe('Milissegundos desde 1970 (UTC).');

export const flagAnswer = z
  .object({ codigo: z.enum(FLAG_CODIGOS), valor: z.number().nullable() })
  .describe('Sinalização automática: o código e o valor medido (metros, minutos, fotos).');

/** Per field of the flow (its name in the record): what the reviewer says is wrong with it. */
const camposComentados = z.record(z.string(), z.string().trim().min(1).max(500));

export const revisaoEstadoAnswer = z.object({
  estado: z.enum(ESTADOS_REVISAO),
  /** The record's revision: 1 as first uploaded, + 1 for each correction the technician sent. */
  versao: z.number().int().min(1),
  comentario: z.string().nullable(),
  campos: camposComentados,
  revisor: z.string().nullable().describe('O nome de quem decidiu.'),
  em: epochMs.nullable().describe('Quando foi decidido.'),
});

/** One record in the review list: who, when, where, its fields, photos, flags and review state. */
export const itemRevisaoAnswer = z.object({
  id: uuid,
  fluxo: z.enum(FLUXOS),
  projeto: uuid,
  tecnico: z.object({ id: uuid, nome: z.string() }).nullable(),
  zona: z.string().nullable().describe('O rótulo da zona.'),
  dataHora: epochMs.nullable(),
  sincronizadoEm: epochMs.nullable(),
  coordenadas: z.object({ lat: z.number(), lng: z.number() }).nullable(),
  precisao: z.number().nullable(),
  /** The flow's fields, as uploaded (names of the flow's upload). */
  dados: z.record(z.string(), z.unknown()),
  fotos: z.array(z.string()).describe('As URLs das fotos (/api/fotos/...).'),
  flags: z.array(flagAnswer),
  revisao: revisaoEstadoAnswer,
});
export type ItemRevisao = z.output<typeof itemRevisaoAnswer>;

const pagina = z.coerce
  .number({ error: 'Página inválida.' })
  .int('Página inválida.')
  .min(1, 'Página inválida.')
  .default(1);

/** What the review list and the bulk approval filter on (dates: local days, inclusive). */
export const filtroRevisaoSchema = z
  .object({
    projeto: z.uuid({ error: 'Informe o projeto.' }),
    fluxo: z.enum(FLUXOS, { error: 'Fluxo inválido.' }).optional(),
    tecnico: z.uuid({ error: 'Técnico inválido.' }).optional(),
    dataInicio: daySchema('Data inicial').optional(),
    dataFim: daySchema('Data final').optional(),
    /** A flag's code, or 'qualquer' for records with any flag, 'nenhuma' for those with none. */
    flag: z.enum([...FLAG_CODIGOS, 'qualquer', 'nenhuma'], { error: 'Sinalização inválida.' }).optional(),
    estado: z.enum(ESTADOS_REVISAO, { error: 'Estado de revisão inválido.' }).optional(),
  })
  .refine((q) => !q.dataInicio || !q.dataFim || q.dataInicio <= q.dataFim, {
    message: 'A data inicial deve ser anterior ou igual à data final.',
    path: ['dataInicio'],
  });
export type FiltroRevisao = z.output<typeof filtroRevisaoSchema>;

const contagem = <K extends string>(keys: readonly K[]) =>
  z.object(Object.fromEntries(keys.map((key) => [key, z.number().int()])) as Record<K, z.ZodNumber>);

export const listaRevisaoAnswer = z.object({
  /** Records the filter shows, in every page. */
  total: z.number().int(),
  pagina: z.number().int(),
  porPagina: z.literal(REVISAO_POR_PAGINA),
  registros: z.array(itemRevisaoAnswer),
  /** Of the records the filter shows, those not yet approved: what 'Aprovar todos' would approve (its `esperado`). */
  aAprovar: z.number().int(),
  /** Every technician with a field record in the project, by name: what the 'Técnico' filter offers. */
  tecnicos: z.array(z.object({ id: uuid, nome: z.string() })),
  /** The project's records (flow, technician and dates applied; flag and state not) per flag and per state. */
  contagem: z.object({ flags: contagem(FLAG_CODIGOS), estados: contagem(ESTADOS_REVISAO) }),
});

/** The back office that reads the project (the interpretador and externo: Interpres projects). */
const readers = ['administrador', 'supervisor', 'interpretador', 'externo'] as const;
/** Who decides: not the externo, who only reads. */
const reviewers = ['administrador', 'supervisor', 'interpretador'] as const;

export const listRevisao = endpoint({
  method: 'GET',
  path: '/api/revisao',
  tag: 'revisao',
  summary: 'Os registros de um projeto para revisão, 50 por página, com sinalizações e estado.',
  description: 'Ordenados pela data da coleta, mais recentes primeiro. Registros concorrentes não entram.',
  allow: readers,
  query: filtroRevisaoSchema.and(z.object({ pagina })),
  ok: { status: 200, description: 'Uma página da lista.', answer: listaRevisaoAnswer },
});

export const decisaoSchema = z
  .object({
    estado: z.enum(ESTADOS_REVISAO, { error: 'Estado de revisão inválido.' }),
    comentario: z.string().trim().max(2000, 'O comentário deve ter no máximo 2000 caracteres.').optional(),
    campos: camposComentados.optional(),
    /** The revision the reviewer looked at: a decision on an older one is refused (409). */
    versao: z.number({ error: 'Informe a versão revisada.' }).int().min(1),
  })
  .refine((d) => d.estado !== 'reprovado' || (d.comentario ?? '') !== '', {
    message: 'Informe o motivo da reprovação.',
    path: ['comentario'],
  });

const registroParams = z.object({ id: uuidParam('Identificador do registro') });

export const decidirRevisao = endpoint({
  method: 'POST',
  path: '/api/revisao/:id',
  tag: 'revisao',
  summary: 'Aprova, reprova (com comentário) ou devolve a pendente um registro.',
  description:
    'Reprovar exige comentário; `campos` aponta campos do fluxo. 409 quando o registro recebeu outra versão.',
  allow: reviewers,
  params: registroParams,
  body: decisaoSchema,
  ok: { status: 200, description: 'O registro com o novo estado.', answer: itemRevisaoAnswer },
  errors: [409],
});

export const aprovarLote = endpoint({
  method: 'POST',
  path: '/api/revisao/aprovar',
  tag: 'revisao',
  summary: 'Aprova todos os registros que o filtro mostra e ainda não estão aprovados.',
  description: '`esperado`: quantos a confirmação anunciou; 409 se o filtro mostra outro número agora.',
  allow: reviewers,
  body: filtroRevisaoSchema.and(z.object({ esperado: z.number().int().min(0).optional() })),
  ok: {
    status: 200,
    description: 'Quantos foram aprovados.',
    answer: z.object({ aprovados: z.number().int() }),
  },
  errors: [409],
});

export const historicoAnswer = z.object({
  decisoes: z.array(
    z.object({
      versao: z.number().int(),
      estado: z.enum(ESTADOS_REVISAO),
      comentario: z.string().nullable(),
      campos: camposComentados,
      usuario: z.string().nullable(),
      em: epochMs,
    }),
  ),
  /** Every revision the technician sent, the current one last. */
  versoes: z.array(
    z.object({
      versao: z.number().int(),
      dataHora: epochMs.nullable(),
      sincronizadoEm: epochMs.nullable(),
      coordenadas: z.object({ lat: z.number(), lng: z.number() }).nullable(),
      dados: z.record(z.string(), z.unknown()),
      fotos: z.array(z.string()),
      flags: z.array(flagAnswer),
    }),
  ),
});

export const getHistorico = endpoint({
  method: 'GET',
  path: '/api/revisao/:id/historico',
  tag: 'revisao',
  summary: 'O histórico de um registro: cada decisão (quem, quando, comentário) e cada versão enviada.',
  allow: readers,
  params: registroParams,
  ok: { status: 200, description: 'O histórico.', answer: historicoAnswer },
});

const metros = (label: string) =>
  z.coerce
    .number({ error: `${label} inválida.` })
    .min(0.1, `${label} deve ser de pelo menos 0,1 m.`)
    .max(10000, `${label} deve ser no máximo 10000 m.`);

export const limitesSchema = z.object({
  precisaoMaxima: metros('A precisão máxima'),
  distanciaDuplicata: metros('A distância de duplicata'),
});

const projetoParams = z.object({ id: uuidParam('Identificador de projeto') });

export const getLimites = endpoint({
  method: 'GET',
  path: '/api/projeto/:id/qualidade',
  tag: 'revisao',
  summary: 'Os limites de qualidade do projeto (precisão do GPS, distância de duplicata), em metros.',
  allow: readers,
  params: projetoParams,
  ok: { status: 200, description: 'Os limites.', answer: limitesSchema },
});

export const putLimites = endpoint({
  method: 'PUT',
  path: '/api/projeto/:id/qualidade',
  tag: 'revisao',
  summary: 'Altera os limites de qualidade do projeto; valem para os próximos envios.',
  allow: ['administrador'],
  params: projetoParams,
  body: limitesSchema,
  ok: { status: 200, description: 'Os limites gravados.', answer: limitesSchema },
});

/** A photo of a rejected record, by slot and content hash: the correction may keep it by naming its hash. */
const fotoRef = z.object({ slot: z.number().int(), hash: z.string(), url: z.string() });

export const correcaoAnswer = z.object({
  fluxo: z.enum(FLUXOS),
  /** The record as its flow's download answers it (`_id`, `projeto`, the flow's fields, `coordenadas`, ...). */
  registro: z.looseObject({ _id: uuid, projeto: uuid }),
  fotos: z.array(fotoRef),
  revisao: z.object({
    versao: z.number().int().min(1),
    comentario: z.string(),
    campos: camposComentados,
    revisor: z.string().nullable(),
    em: epochMs,
  }),
});
export type CorrecaoRemota = z.output<typeof correcaoAnswer>;

export const listCorrecoes = endpoint({
  method: 'GET',
  path: '/api/correcoes',
  tag: 'revisao',
  summary: 'Os registros do técnico reprovados e ainda não corrigidos, com o comentário do revisor.',
  description:
    'O aparelho os busca em cada sincronização. A correção volta pelo envio do fluxo com o mesmo id e `versao` = versão reprovada + 1.',
  allow: ['tecnico'],
  ok: { status: 200, description: 'As correções pedidas.', answer: z.array(correcaoAnswer) },
});

/** Re-exported for the flows' upload envelope (domain/src/flows/flow.ts). */
export type { EstadoRevisao as Estado };
