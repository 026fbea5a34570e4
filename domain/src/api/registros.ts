// The records of every flow (SPEC.md 7 'Uploads', 'Downloads by zone and project', 'Photos'; DESIGN.md 'Sync
// protocol'): each flow's endpoints are declared from its registry entry, plus the few that serve any flow.
import { daySchema } from '../export/periodo.ts';
import { type FlowDefinition, uploadEnvelopeSchema } from '../flows/flow.ts';
import { FLUXOS } from '../flows/keys.ts';
import { ESTADOS_REVISAO, FLAG_CODIGOS } from '../revisao.ts';
import { z } from '../zod.ts';
import { deletedAnswer, endpoint, uuid, uuidParam } from './contract.ts';

/** A photo's content hash, as the device names a photo the server already holds. */
export const SHA256_HEX = /^[0-9a-f]{64}$/;

const latLng = z.object({ lat: z.number(), lng: z.number() });
const epochMs = (what: string) =>
  z.number().nullable().describe(`${what}, em milissegundos desde 1970 (UTC).`);
const point = z
  .object({ type: z.literal('Point'), coordinates: z.array(z.number()).length(2) })
  .describe('Ponto GeoJSON [lng, lat].');

export const fotosAnswer = z.array(z.string()).describe('As URLs das fotos do registro (/api/fotos/...).');

/** One collection of a point or of a list's record. */
const coletaAnswer = z
  .looseObject({
    _id: uuid,
    tecnico: z.string().nullable().describe('O nome do técnico.'),
    dataHora: epochMs('Data e hora da coleta'),
    sincronizadoEm: epochMs('Chegada ao servidor'),
    coordenadas: latLng.nullable(),
    fotos: fotosAnswer,
  })
  .describe('Coleta (os campos do fluxo, mais estes).');

/** What a stored record of any flow answers besides its flow's fields (its upload's), which come at the top level. */
const registroFields = {
  _id: uuid,
  projeto: uuid,
  nomeProjeto: z.string(),
  zona: uuid.nullable(),
  tecnico: z.string().nullable().describe('O nome do técnico.'),
  coordenadas: latLng.nullable(),
  localizacao: point.nullable(),
  dataHora: epochMs('Data e hora da coleta'),
  sincronizadoEm: epochMs('Chegada ao servidor'),
  coletado: z.boolean(),
  adicionadoApp: z.boolean(),
  carregadoBackoffice: z.boolean(),
  fotos: fotosAnswer,
  /** Issue 24: the record's revision (1 as first uploaded) and review state. */
  versao: z.number().int().min(1).optional(),
  revisao: z.enum(ESTADOS_REVISAO).optional(),
  flags: z
    .array(z.object({ codigo: z.enum(FLAG_CODIGOS), valor: z.number().nullable() }))
    .optional()
    .describe('As sinalizações automáticas do registro (issue 24).'),
};

/** A point's (every flow but the `coleta` ones) collections, and whether another competes with the one shown. */
const pontoFields = {
  conflito: z.boolean().describe('Outra coleta concorre com esta.'),
  coletas: z.array(coletaAnswer),
};

/** A list's record (LPT Agiltec) says whether it was collected (SPEC.md 3). */
const listaFields = { possuiColeta: z.boolean() };

/** A stored record of a flow: the flow's fields at the top level, plus these. */
export function registroAnswer(flow: FlowDefinition) {
  return z
    .looseObject({
      ...registroFields,
      ...(flow.lifecycle === 'coleta' ? {} : pontoFields),
      ...(flow.lifecycle === 'lista' ? listaFields : {}),
    })
    .describe(`Registro de ${flow.labels.record} (os campos do fluxo, mais estes).`);
}

const nomeProjetoSchema = z
  .string({ error: 'Informe o nome do projeto.' })
  .trim()
  .min(1, 'Informe o nome do projeto.');
export const byDataSchema = z.object({ nomeProjeto: nomeProjetoSchema, data: daySchema('Data') });
export const byPeriodoSchema = z
  .object({
    nomeProjeto: nomeProjetoSchema,
    dataInicio: daySchema('Data inicial'),
    dataFim: daySchema('Data final'),
  })
  .refine((q) => q.dataInicio <= q.dataFim, {
    message: 'A data inicial deve ser anterior ou igual à data final.',
    path: ['dataInicio'],
  });

/** A device's question before it sends photos: which of these SHA-256s does the server hold? */
const MAX_HASHES = 1000;
export const existemSchema = z.object(
  {
    hashes: z
      .array(z.string().regex(SHA256_HEX, 'Hash de foto inválido.'), { error: 'Envie a lista hashes.' })
      .max(MAX_HASHES, `Pergunte por no máximo ${MAX_HASHES} fotos de cada vez.`),
  },
  { error: 'Envie a lista hashes.' },
);

/** Who sends records: the devices, and the administrador (SPEC.md 7). */
const senders = ['tecnico', 'administrador'] as const;
const readers = ['administrador', 'supervisor', 'tecnico'] as const;
const backoffice = ['administrador', 'supervisor', 'interpretador', 'externo'] as const;
/** Flows the devices download by project (LPT Agiltec) also answer the technicians of the project's zones. */
const backofficeAndDevices = [...backoffice, 'tecnico'] as const;
const registroParams = z.object({ id: uuidParam('Identificador do registro') });

/** The endpoints of one flow, from its declaration. */
export function flowEndpoints(flow: FlowDefinition) {
  const base = `/api/${flow.apiPath}`;
  const nome = flow.labels.record;
  const lista = z.array(registroAnswer(flow));
  const { byProject } = flow;
  return {
    upload: endpoint({
      method: 'POST',
      path: base,
      tag: 'registros',
      summary: `Envia um registro de ${nome} com suas fotos (idempotente pelo id).`,
      description:
        'Campos do envelope (id, projeto, coordenadas, dataHora) e os dados do fluxo; fotos como partes de arquivo.',
      allow: senders,
      body: uploadEnvelopeSchema.and(flow.dados),
      consumes: ['multipart/form-data'],
      ok: {
        status: 201,
        description: 'O registro guardado (200 quando o mesmo envio se repete).',
        answer: registroAnswer(flow),
      },
      errors: [409, 413, 415],
    }),
    byZona: flow.byZona
      ? endpoint({
          method: 'GET',
          path: `${base}/getByZona`,
          tag: 'registros',
          summary: `Os registros de ${nome} de uma zona (para os aparelhos).`,
          allow: readers,
          query: z.object({ id: uuidParam('Identificador de zona') }),
          ok: { status: 200, description: 'Os registros.', answer: lista },
        })
      : null,
    byProject: byProject
      ? endpoint({
          method: 'GET',
          path: `/api/${byProject.path}`,
          tag: 'registros',
          summary: `Os registros de ${nome} de um projeto.`,
          allow: flow.byZona ? backoffice : backofficeAndDevices,
          params: z.object({
            projeto: byProject.by === 'id' ? uuidParam('Identificador do projeto') : z.string(),
          }),
          ok: { status: 200, description: 'Os registros.', answer: lista },
        })
      : null,
    byData: endpoint({
      method: 'GET',
      path: `${base}/getByData`,
      tag: 'registros',
      summary: `Os registros de ${nome} de um projeto num dia.`,
      allow: backoffice,
      query: byDataSchema,
      ok: { status: 200, description: 'Os registros.', answer: lista },
    }),
    byPeriodo: endpoint({
      method: 'GET',
      path: `${base}/getByPeriodo`,
      tag: 'registros',
      summary: `Os registros de ${nome} de um projeto num período.`,
      allow: backoffice,
      query: byPeriodoSchema,
      ok: { status: 200, description: 'Os registros.', answer: lista },
    }),
    fotos: endpoint({
      method: 'GET',
      path: `${base}/:id/fotos`,
      tag: 'registros',
      summary: `As fotos de um registro de ${nome}.`,
      allow: readers,
      params: registroParams,
      ok: { status: 200, description: 'As fotos do registro.', answer: fotosAnswer },
    }),
  };
}

export const fotosExistem = endpoint({
  method: 'POST',
  path: '/api/fotos/existem',
  tag: 'registros',
  summary: 'Quais das fotos (por hash) o servidor já guarda, para não reenviá-las.',
  allow: senders,
  body: existemSchema,
  ok: {
    status: 200,
    description: 'Os hashes já guardados.',
    answer: z.object({
      existem: z.array(z.string()).describe('Os hashes SHA-256 das fotos que o servidor já guarda.'),
    }),
  },
});

/** The supervisor map's popup reads a record of any flow. */
export const getRegistro = endpoint({
  method: 'GET',
  path: '/api/registro/:id',
  tag: 'registros',
  summary: 'Um registro de qualquer fluxo.',
  allow: readers,
  params: registroParams,
  ok: {
    status: 200,
    description: 'O registro.',
    // the record of its flow: what every flow's has, and what points and lists add, as their flow says
    answer: z
      .looseObject({
        ...registroFields,
        conflito: pontoFields.conflito.optional(),
        coletas: pontoFields.coletas.optional(),
        possuiColeta: listaFields.possuiColeta.optional(),
      })
      .describe(
        'Registro de qualquer fluxo (os campos do fluxo, mais estes; conflito e coletas nos pontos e nas listas, ' +
          'possuiColeta nas listas).',
      ),
  },
});

/**
 * Issue 39: the back office deletes a record (its photos rows, flags, revisions and competing collections with it);
 * the server remembers the deletion, so the phones that still keep the record do not send it back.
 */
export const deleteRegistro = endpoint({
  method: 'DELETE',
  path: '/api/registro/:id',
  tag: 'registros',
  summary: 'Exclui um registro; o servidor lembra a exclusão, e os aparelhos não o reenviam.',
  allow: ['administrador'],
  params: registroParams,
  ok: { status: 200, description: 'Excluído.', answer: deletedAnswer },
});

/**
 * What the server says of a record a phone kept after sending it (issue 39, DESIGN.md 'Sync protocol'): held; lacking
 * (a restored backup: the phone sends it again); deleted on purpose in the back office (the phone lets it go); or
 * someone else's (the phone sends nothing, and learns nothing more of it).
 */
export const ESTADOS_CONFERIDOS = ['guardado', 'faltando', 'excluido', 'alheio'] as const;
export type EstadoConferido = (typeof ESTADOS_CONFERIDOS)[number];

export const MAX_CONFERIR = 500;
const MAX_FOTOS_CONFERIR = 50;
const lowerUuid = (message: string) => z.uuid({ error: message }).transform((value) => value.toLowerCase());

export const conferirSchema = z.object(
  {
    registros: z
      .array(
        z.object(
          {
            id: lowerUuid('Identificador do registro inválido.'),
            fluxo: z.enum(FLUXOS, { error: 'Fluxo inválido.' }),
            coleta: lowerUuid('Identificador da coleta inválido.')
              .optional()
              .describe('O coletaId do envio, quando ele o levou (a coleta de um ponto pré-carregado).'),
            fotos: z
              .array(
                z.string({ error: 'Hash de foto inválido.' }).regex(SHA256_HEX, 'Hash de foto inválido.'),
                {
                  error: 'Envie a lista fotos de cada registro.',
                },
              )
              .max(MAX_FOTOS_CONFERIR, `Informe no máximo ${MAX_FOTOS_CONFERIR} fotos por registro.`)
              .default([])
              .describe('Os hashes SHA-256 das fotos que o aparelho guarda deste registro.'),
          },
          { error: 'Cada registro deve ter id, fluxo e fotos.' },
        ),
        { error: 'Envie a lista registros.' },
      )
      .max(MAX_CONFERIR, `Pergunte por no máximo ${MAX_CONFERIR} registros de cada vez.`),
  },
  { error: 'Envie a lista registros.' },
);

export const conferirRegistros = endpoint({
  method: 'POST',
  path: '/api/registros/conferir',
  tag: 'registros',
  summary: 'Quais dos registros que o aparelho enviou (e guarda) o servidor não tem, ou excluiu.',
  description:
    '`guardado`: o servidor tem o registro (`fotosFaltando`: as fotos dele cujos arquivos perdeu, a devolver por ' +
    'POST /api/registros/{id}/fotos); `faltando`: não tem, reenvie-o; `excluido`: excluído no back office, não o ' +
    'reenvie; `alheio`: de outro técnico, não o reenvie. Um ponto está guardado quando a coleta de quem pergunta está.',
  allow: senders,
  body: conferirSchema,
  ok: {
    status: 200,
    description: 'O estado de cada registro, na ordem perguntada.',
    answer: z.object({
      registros: z.array(
        z.object({
          id: uuid,
          estado: z.enum(ESTADOS_CONFERIDOS),
          fotosFaltando: z
            .array(z.string())
            .describe('Dos hashes informados, os das fotos do registro cujos arquivos o servidor não tem.'),
        }),
      ),
    }),
  },
});

/** Issue 39: the bytes of a held record's photos, given back by the phone that sent them (a lost photo file). */
export const restaurarFotos = endpoint({
  method: 'POST',
  path: '/api/registros/:id/fotos',
  tag: 'registros',
  summary: 'Devolve ao servidor os arquivos perdidos das fotos de um registro que ele guarda.',
  description:
    'Fotos como partes de arquivo no campo fotos, cada uma com o nome da sua posição (0.jpg); cada uma deve ser a ' +
    'foto guardada nessa posição (o mesmo SHA-256), ou nada é guardado (409). Só o técnico do registro ou um ' +
    'administrador.',
  allow: senders,
  params: registroParams,
  consumes: ['multipart/form-data'],
  ok: {
    status: 200,
    description: 'As posições das fotos restauradas.',
    answer: z.object({ restauradas: z.array(z.number().int()) }),
  },
  errors: [409, 413, 415],
});

export const getFoto = endpoint({
  method: 'GET',
  path: '/api/fotos/:registro/:slot',
  tag: 'registros',
  summary: 'A foto de um registro.',
  description:
    '`v`: a versão do registro (uma correção pode trocar a foto de uma posição); sem ela, a atual.',
  // The review (issue 24) shows photos to the interpretador and the externo of Interpres projects.
  allow: [...readers, 'interpretador', 'externo'],
  params: z.object({ registro: uuidParam('Identificador do registro'), slot: z.string() }),
  query: z.object({
    v: z.coerce
      .number({ error: 'Versão inválida.' })
      .int('Versão inválida.')
      .min(1, 'Versão inválida.')
      .optional(),
  }),
  ok: { status: 200, description: 'A imagem JPEG.', produces: 'image/jpeg' },
});
