// /api/projeto (SPEC.md 7 'Projects'): reads by role and ownership, writes by the administrador, and getByUser, the
// projects a device downloads.
import { RETENCAO_COPIAS_DIAS_MAX, RETENCAO_COPIAS_DIAS_MIN } from '../constants.ts';
import { FLUXOS } from '../flows/keys.ts';
import { PRELOADED_FLOWS } from '../flows/registry.ts';
import { projetoFieldsSchema } from '../projeto.ts';
import { z } from '../zod.ts';
import { endpoint, resourceEndpoints, uuid, uuidParam } from './contract.ts';
import { mapaBaseAnswer } from './mapa-base.ts';

const fluxos = z.array(z.enum(FLUXOS));
const idNome = z.object({ _id: uuid, nome: z.string() });
const latLng = z.object({ lat: z.number(), lng: z.number() });
const point = z
  .object({ type: z.literal('Point'), coordinates: z.array(z.number()).length(2) })
  .describe('Ponto GeoJSON [lng, lat].');
const polygon = z
  .object({ type: z.literal('Polygon'), coordinates: z.array(z.array(z.array(z.number()))) })
  .describe('Polígono GeoJSON.');

const retencaoCopiasDias = z.number().int().min(RETENCAO_COPIAS_DIAS_MIN).max(RETENCAO_COPIAS_DIAS_MAX);

const zonaAnswer = z.object({
  _id: uuid,
  label: z.string(),
  poligono: z.array(latLng).describe('O anel externo do polígono.'),
  poligono2: polygon,
});

const projetoSummaryAnswer = z
  .object({
    _id: uuid,
    nome: z.string(),
    cliente: idNome,
    fluxos,
    fuso: z.number().int().nullable().describe('Fuso UTM (18 a 25).'),
    disponivelInterpres: z.boolean(),
  })
  .describe('Projeto (resumo)');

/** A preloaded point: its file's columns at the top level, plus these. */
const pontoAnswer = z
  .looseObject({
    _id: uuid,
    coordenadas: z.array(z.number()).length(2).optional().describe('[lat, lng], quando o ponto tem posição.'),
    localizacao: point.optional(),
    coletado: z.boolean(),
    carregadoBackoffice: z.boolean(),
  })
  .describe('Ponto pré-carregado (as colunas do arquivo, mais estes campos).');

const projetoDetailAnswer = z
  .object({
    _id: uuid,
    nome: z.string(),
    cliente: uuid,
    fluxos,
    fuso: z.number().int().nullable(),
    disponivelInterpres: z.boolean(),
    limiteDownload: z.number().int().nullable(),
    carimboFotos: z
      .boolean()
      .describe('As fotos recebem o carimbo de data, hora, local e técnico (ligado por padrão).'),
    retencaoCopiasDias: retencaoCopiasDias.describe(
      'Por quantos dias o aparelho guarda o que enviou deste projeto, para reenviar a um servidor restaurado (1 a 90, 7 por padrão).',
    ),
    imagensMapa: z.array(z.unknown()),
    zonas: z.array(zonaAnswer),
    /** The project's basemap package (issue 23), null without one. */
    mapaBase: mapaBaseAnswer.nullable(),
    // The preloaded points of each flow, under the field name of the project form (pontosIP, ...).
    ...Object.fromEntries(
      PRELOADED_FLOWS.map((flow) => [
        flow.preload.formField,
        z.array(pontoAnswer).describe(`Os pontos pré-carregados de ${flow.labels.record}.`),
      ]),
    ),
  })
  .describe('Projeto');

const backoffice = ['administrador', 'supervisor', 'interpretador', 'externo'] as const;

/**
 * The project form (SPEC.md 7: form-encoded, zonas and pontos* as JSON strings, or the files' raw text: kml,
 * arquivoIP, ...). The route reads it itself: a file that is not text is named before the fields are checked, and
 * the files are parsed on the server.
 */
const projetoForm = {
  body: projetoFieldsSchema,
  consumes: ['application/x-www-form-urlencoded', 'application/json'],
  readByRoute: ['body'],
  /** Zones and point files make big forms; the browser refuses files past their own limits first. */
  bodyLimit: 40 * 1024 * 1024,
  errors: [409, 413],
} as const;

export type ProjetoSummary = z.output<typeof projetoSummaryAnswer>;

const projetos = resourceEndpoints({
  path: '/api/projeto',
  nome: ['projeto', 'projetos'],
  readers: backoffice,
  item: projetoSummaryAnswer,
  one: projetoDetailAnswer,
  create: projetoForm,
  update: projetoForm,
  summaries: {
    list: 'Lista os projetos visíveis ao usuário.',
    get: 'Um projeto, com zonas e pontos.',
    create: 'Cadastra um projeto (com o KML de zonas e a planilha de pontos).',
  },
});

export const listProjetos = projetos.list;
export const getProjeto = projetos.get;
export const createProjeto = projetos.create;
export const updateProjeto = projetos.update;
/** Not one with records collected in the field (409). */
export const deleteProjeto = projetos.delete;

/** Any signed-in user: a technician gets the projects of their zones, with only those zones. */
export const listProjetosOfUser = endpoint({
  method: 'GET',
  path: '/api/projeto/getByUser',
  tag: 'projetos',
  summary: 'Os projetos do usuário da sessão (técnicos: os das suas zonas).',
  allow: [],
  ok: {
    status: 200,
    description: 'Os projetos.',
    answer: z.array(
      z
        .object({
          _id: uuid,
          nome: z.string(),
          zonas: z.array(zonaAnswer).describe('Só as zonas do usuário.'),
          fluxos,
          imagensMapa: z.array(z.unknown()),
          fuso: z.number().int().nullable(),
          limiteDownload: z.number().int().nullable(),
          carimboFotos: z.boolean().describe('O aparelho carimba as fotos deste projeto.'),
          retencaoCopiasDias: retencaoCopiasDias.describe(
            'Por quantos dias o aparelho guarda as cópias do que enviou deste projeto.',
          ),
          /** The basemap package the device downloads for its zones (coverage judged against them), or null. */
          mapaBase: mapaBaseAnswer.nullable(),
        })
        .describe('Projeto do usuário'),
    ),
  },
});

export const listProjetosByCliente = endpoint({
  method: 'GET',
  path: '/api/projeto/getByCliente/:clienteId',
  tag: 'projetos',
  summary: 'Os projetos de um cliente.',
  allow: ['administrador', 'supervisor'],
  params: z.object({ clienteId: uuidParam('Identificador de cliente') }),
  ok: {
    status: 200,
    description: 'Os projetos.',
    answer: z.array(
      projetoSummaryAnswer
        .extend({ zonas: z.array(z.object({ _id: uuid, label: z.string() })) })
        .describe('Projeto do cliente'),
    ),
  },
});

/** A project as getProjeto answers it; its shape also holds each preloaded flow's points under its formField. */
export type ProjetoAnswer = z.output<typeof projetoDetailAnswer>;
export type PontoAnswer = z.output<typeof pontoAnswer>;
export type ProjetoByCliente = z.output<typeof listProjetosByCliente.ok.answer>[number];
