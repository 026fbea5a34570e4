// The supervisor map's endpoints (SPEC.md 2 'Supervisor', 3 'Map entities', 7): a compact form of every point of a
// project, so 100,000 points travel and cluster without the full records, its statistics, and the points stored
// from then on as Server-Sent Events (a popup fetches its record: registros.ts getRegistro). The types of these
// answers (domain/src/mapa/api.ts) are the schemas' own.
import { periodoSchema } from '../export/periodo.ts';
import { FLUXOS } from '../flows/keys.ts';
import { z } from '../zod.ts';
import { endpoint, uuid, uuidParam } from './contract.ts';

const fluxo = z.enum(FLUXOS);

/**
 * An array of numbers, checked in one loop: z.array(z.number()) parses and copies element by element, ≈ 30 ms for
 * the 200,000 coordinates of 100,000 points the web parses.
 */
const numbers = (description: string) =>
  z
    .custom<number[]>(
      (value) => Array.isArray(value) && value.every((item) => typeof item === 'number'),
      'Esperava uma lista de números',
    )
    // what a custom check cannot say to the documentation
    .meta({ type: 'array', items: { type: 'number' }, description });

/**
 * The points of one flow: `ids` is the concatenation of each record's id as 22 characters of base64url (its 16
 * bytes), `coords` holds latitude and longitude of each point in millionths of a degree, interleaved
 * ([lat0, lng0, lat1, lng1, ...]), `status` one character per point, the STATUS bits as a character of STATUS_DIGITS ('0'..'9', 'A'..'Z', ...).
 * Point i: id `ids.slice(22 * i, 22 * i + 22)`, lat `coords[2 * i] / 1e6`, lng `coords[2 * i + 1] / 1e6`.
 */
const camadaAnswer = z.object({
  fluxo,
  ids: z.string().describe('Os ids dos pontos, 22 caracteres base64url cada.'),
  coords: numbers('lat, lng de cada ponto em milionésimos de grau, intercalados.'),
  status: z
    .string()
    .describe(
      'Um caractere por ponto: os bits de situação (0–63) em 0-9, A-Z, a-z, -, _ (0–7 são os dígitos).',
    ),
});

/**
 * Every point with coordinates of the project (collected or not; competing collections are not points of their
 * own), layer by layer, plus what the filters offer.
 */
const mapaAnswer = z.object({
  projeto: z.object({ id: uuid, nome: z.string() }),
  zonas: z.array(
    z.object({
      _id: uuid,
      label: z.string(),
      poligono: z.array(z.object({ lat: z.number(), lng: z.number() })),
    }),
  ),
  camadas: z.array(camadaAnswer),
  tecnicos: z
    .array(z.object({ id: uuid, nome: z.string() }))
    .describe('Os técnicos com registros no projeto.'),
  grade: z
    .object({
      contagens: z.partialRecord(fluxo, z.number().int()),
      limites: z
        .tuple([z.tuple([z.number(), z.number()]), z.tuple([z.number(), z.number()])])
        .nullable()
        .describe('[[sul, oeste], [norte, leste]] dos pontos.'),
    })
    .optional()
    .describe(
      'Presente quando o projeto tem pontos demais para o navegador (MAPA_PONTOS_NO_NAVEGADOR): `camadas` vem vazio e ' +
        'o mapa pede os agrupamentos ao servidor (GET /api/projeto/{id}/mapa/grade).',
    ),
});

/**
 * One 256-px tile of the server's grid at the asked zoom (Leaflet's tile numbering). `clusters`: per cluster its
 * layer (its place in FLUXOS), lat and lng of its points' mean in millionths of a degree, and how many points it
 * holds, flattened. `pontos`: per single point its layer, lat, lng and STATUS bits, flattened; `ids` their ids,
 * 22 characters of base64url each, in the same order.
 */
const gradeTile = z.object({
  x: z.number().int(),
  y: z.number().int(),
  clusters: numbers('camada, lat, lng, pontos de cada agrupamento, em sequência.'),
  pontos: numbers('camada, lat, lng, situação de cada ponto, em sequência.'),
  ids: z.string().describe('Os ids dos pontos, 22 caracteres base64url cada.'),
});

/** Records per flow, `_id` the flow key (SPEC.md 7). */
const estatisticaItem = z.object({ _id: fluxo.describe('O fluxo.'), count: z.number().int() });

/**
 * The data of each `ponto` event: a record stored or collected in the project (by any server process); the map
 * adds or updates the point and refreshes the statistics.
 */
export const pontoEventoSchema = z.object({
  fluxo,
  /** The record's id as a uuid (not base64url). */
  id: z.string(),
  lat: z.number(),
  lng: z.number(),
  /** STATUS bits. */
  status: z.number().int().min(0),
  /** The technician of the point's current collection (their name). */
  tecnico: z.string().nullable(),
  /** Epoch ms of the collection. */
  dataHora: z.number().nullable(),
});

export type CamadaCompacta = z.output<typeof camadaAnswer>;
export type GradeTile = z.output<typeof gradeTile>;
export type MapaProjeto = z.output<typeof mapaAnswer>;
export type EstatisticaItem = z.output<typeof estatisticaItem>;
export type PontoEvento = z.output<typeof pontoEventoSchema>;

const readers = ['administrador', 'supervisor', 'tecnico'] as const;
const params = z.object({ id: uuidParam('Identificador de projeto') });

/** The filters (dates YYYY-MM-DD, local days, inclusive), read after the project is found and allowed. */
const filtros = { query: periodoSchema, readByRoute: ['query'] } as const;

/** Supervisors and administrators see the project whole; a technician only the points of their zones. */
export const getMapa = endpoint({
  method: 'GET',
  path: '/api/projeto/:id/mapa',
  tag: 'mapa',
  summary: 'Os pontos do projeto no mapa, em forma compacta, camada por camada.',
  allow: readers,
  params,
  ...filtros,
  ok: {
    status: 200,
    description: 'As zonas, as camadas de pontos e os técnicos do projeto.',
    answer: mapaAnswer,
  },
});

/** The largest zoom a grid is asked at (the map's). */
export const GRADE_MAX_ZOOM = 19;
/** Tiles one request may ask for: a 4K screen's view with its margin. */
export const GRADE_MAX_TILES = 120;

const TILE_LIST = /^\d{1,7}:\d{1,7}(,\d{1,7}:\d{1,7})*$/;

/** The grid's own parameters; the filters are read as the map's (periodoSchema). */
export const gradeQuerySchema = z.object({
  z: z.coerce
    .number({ error: 'Zoom inválido.' })
    .int({ error: 'Zoom inválido.' })
    .min(0, { error: 'Zoom inválido.' })
    .max(GRADE_MAX_ZOOM, { error: 'Zoom inválido.' }),
  tiles: z
    .string({ error: 'Informe os quadros (x:y, separados por vírgula).' })
    .regex(TILE_LIST, { error: 'Quadros inválidos: use x:y, separados por vírgula.' })
    .transform((text) => text.split(',').map((pair) => pair.split(':').map(Number) as [number, number]))
    .refine((tiles) => tiles.length <= GRADE_MAX_TILES, {
      error: `No máximo ${GRADE_MAX_TILES} quadros por pedido.`,
    }),
  modo: z.enum(['clusters', 'pontos'], { error: "Modo inválido: 'clusters' ou 'pontos'." }).default('clusters'),
  sinalizados: z.enum(['0', '1'], { error: 'Sinalizados inválido: 0 ou 1.' }).default('0'),
});

const gradeAnswer = z.object({
  versao: z.string().describe('A versão do projeto de que os quadros são.'),
  contagens: z.partialRecord(fluxo, z.number().int()).describe('Os pontos de cada camada nessa versão.'),
  tiles: z.array(gradeTile),
});

/**
 * A city-sized project's map, clustered by the server on a grid of its 256-px tiles at zoom `z`, remembered per
 * project, filters and version: a pan asks only for the tiles it has not seen.
 */
export const getMapaGrade = endpoint({
  method: 'GET',
  path: '/api/projeto/:id/mapa/grade',
  tag: 'mapa',
  summary: 'Os agrupamentos e pontos do projeto em quadros do mapa, calculados pelo servidor.',
  allow: readers,
  params,
  query: z.object({
    z: z.number().int().describe('O zoom.'),
    tiles: z.string().describe('Os quadros, x:y separados por vírgula (numeração do Leaflet).'),
    modo: z.enum(['clusters', 'pontos']).optional().describe("'pontos': um ponto por célula de 2 px."),
    sinalizados: z.enum(['0', '1']).optional().describe("'1': somente os pontos sinalizados."),
    dataInicio: z.string().optional(),
    dataFim: z.string().optional(),
    tecnico: z.string().optional(),
  }),
  readByRoute: ['query'],
  ok: { status: 200, description: 'Os quadros.', answer: gradeAnswer },
});

/** The project by its name (SPEC.md 7) or its id. */
export const getEstatistica = endpoint({
  method: 'GET',
  path: '/api/projeto/:nome/estatistica',
  tag: 'mapa',
  summary: 'Contagens do projeto por situação.',
  allow: readers,
  params: z.object({ nome: z.string().describe('O nome do projeto, ou o seu id.') }),
  ...filtros,
  ok: { status: 200, description: 'As contagens.', answer: z.array(estatisticaItem) },
});

/** A comment line every 25 s keeps proxies from closing the stream. */
export const watchMapa = endpoint({
  method: 'GET',
  path: '/api/projeto/:id/mapa/eventos',
  tag: 'mapa',
  summary: 'Eventos ao vivo do mapa do projeto (text/event-stream).',
  allow: readers,
  params,
  ok: {
    status: 200,
    description: 'Fluxo de eventos.',
    produces: 'text/event-stream',
    answer: z
      .string()
      .describe(
        `Eventos \`ponto\`, um por registro guardado no projeto; data: JSON { ${Object.keys(pontoEventoSchema.shape).join(', ')} }. ` +
          'Um comentário a cada 25 s mantém a conexão aberta.',
      ),
  },
});
