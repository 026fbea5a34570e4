// A project's basemap package (issue 23, DESIGN.md 'Maps and tiles'): one PMTiles v3 archive per project, uploaded
// in the project form ('Mapa offline') or read from a URL by ranges, served tile by tile to the project's
// technicians and the back office, and downloaded by the device for its zones ('Download do Mapa').
import {
  MAPA_BASE_MAX_BYTES,
  MAPA_BASE_MEDIA,
  MAPA_BASE_TIPOS,
  type MapaBaseTipo,
  mapaBaseTileTemplate,
} from '../mapa/base.ts';
import { z } from '../zod.ts';
import { endpoint, uuidParam } from './contract.ts';

export { MAPA_BASE_MAX_BYTES, MAPA_BASE_MEDIA, MAPA_BASE_TIPOS, type MapaBaseTipo, mapaBaseTileTemplate };

const limites = z
  .object({ oeste: z.number(), sul: z.number(), leste: z.number(), norte: z.number() })
  .describe('Os limites do arquivo, em graus (WGS 84).');

export const mapaBaseAnswer = z
  .object({
    origem: z.enum(['arquivo', 'url']).describe('Enviado ao servidor, ou lido de uma URL por intervalos.'),
    /** The uploaded file's name, or the URL the archive is read from. */
    nome: z.string(),
    tipo: z.enum(MAPA_BASE_TIPOS),
    vetorial: z.boolean().describe('Blocos vetoriais (MVT), desenhados com um estilo de ruas.'),
    minZoom: z.number().int(),
    maxZoom: z.number().int(),
    limites,
    /** The archive's size in bytes. */
    tamanho: z.number().int(),
    /** Tiles the archive addresses (header), for the device's estimate of a download's size. */
    blocos: z.number().int(),
    /** Changes whenever the archive is replaced: the tile URLs carry it (`?v=`), so a cached tile is never stale. */
    versao: z.string(),
    atribuicao: z.string().nullable().describe('A atribuição dos dados do mapa (metadados do arquivo).'),
    /** Vector archives: the layers the tiles hold (metadata `vector_layers`), to pick a style. */
    camadas: z.array(z.string()),
    /** The project's zones the archive's bounds leave (partly) uncovered, by label; empty when it covers them all. */
    zonasDescobertas: z.array(z.string()),
  })
  .describe('Mapa offline do projeto (PMTiles)');

export type MapaBase = z.output<typeof mapaBaseAnswer>;

const projetoParams = z.object({ id: uuidParam('Identificador de projeto') });

/** Who reads the package: the project's technicians (a zone in it) and the back office that sees the project. */
const readers = ['administrador', 'supervisor', 'tecnico'] as const;

export const getMapaBase = endpoint({
  method: 'GET',
  path: '/api/projeto/:id/mapa-base',
  tag: 'mapa-base',
  summary: 'O mapa offline do projeto: tipo, zooms, limites, tamanho e cobertura das zonas.',
  description: '404 quando o projeto não tem mapa offline.',
  allow: readers,
  params: projetoParams,
  ok: { status: 200, description: 'O mapa offline.', answer: mapaBaseAnswer },
});

export const getMapaBaseTile = endpoint({
  method: 'GET',
  path: '/api/projeto/:id/mapa-base/:z/:x/:y',
  tag: 'mapa-base',
  summary: 'Um bloco do mapa offline, lido do arquivo por intervalos.',
  description:
    'Com ETag e cache longo (a URL leva `?v=` com a versão do arquivo); 404 fora do arquivo. ' +
    'O tipo do conteúdo é o do arquivo (image/png, image/jpeg, image/webp, image/avif ou MVT).',
  allow: readers,
  params: z.object({
    id: uuidParam('Identificador de projeto'),
    z: z.coerce
      .number({ error: 'Zoom inválido.' })
      .int('Zoom inválido.')
      .min(0, 'Zoom inválido.')
      .max(30, 'Zoom inválido.'),
    x: z.coerce.number({ error: 'Coluna inválida.' }).int('Coluna inválida.').min(0, 'Coluna inválida.'),
    y: z.coerce.number({ error: 'Linha inválida.' }).int('Linha inválida.').min(0, 'Linha inválida.'),
  }),
  query: z.object({ v: z.string().optional() }),
  ok: { status: 200, description: 'O bloco.', produces: 'application/octet-stream' },
  errors: [304],
});

export const putMapaBase = endpoint({
  method: 'PUT',
  path: '/api/projeto/:id/mapa-base',
  tag: 'mapa-base',
  summary: 'Envia o mapa offline do projeto (um arquivo PMTiles v3), substituindo o anterior.',
  description:
    'O corpo é o arquivo, sem formulário (application/vnd.pmtiles ou application/octet-stream), lido em ' +
    'fluxo e nunca inteiro em memória; `?nome=` dá o nome do arquivo. 413 acima do limite (MAPA_BASE_MAX_BYTES, ' +
    '8 GiB por padrão); 422 quando não é um PMTiles v3 inteiro com blocos.',
  allow: ['administrador'],
  params: projetoParams,
  query: z.object({ nome: z.string().max(255).optional() }),
  consumes: ['application/vnd.pmtiles', 'application/octet-stream'],
  readByRoute: ['body'],
  ok: { status: 200, description: 'O mapa offline guardado.', answer: mapaBaseAnswer },
  errors: [413, 422],
});

export const putMapaBaseUrl = endpoint({
  method: 'PUT',
  path: '/api/projeto/:id/mapa-base/url',
  tag: 'mapa-base',
  summary:
    'Aponta o mapa offline do projeto para um PMTiles numa URL (lido por intervalos), substituindo o anterior.',
  allow: ['administrador'],
  params: projetoParams,
  body: z.object({
    url: z
      .url({ protocol: /^https?$/, error: 'Informe a URL de um arquivo PMTiles (http ou https).' })
      .max(2000, 'URL longa demais.'),
  }),
  ok: { status: 200, description: 'O mapa offline guardado.', answer: mapaBaseAnswer },
  errors: [422],
});

export const deleteMapaBase = endpoint({
  method: 'DELETE',
  path: '/api/projeto/:id/mapa-base',
  tag: 'mapa-base',
  summary: 'Remove o mapa offline do projeto (os projetos voltam aos blocos configurados no servidor).',
  allow: ['administrador'],
  params: projetoParams,
  ok: { status: 204, description: 'Removido.' },
});
