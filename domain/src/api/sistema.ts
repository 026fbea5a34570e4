// The installation itself, public: whether the server can do its work (for a load balancer and an operator), and
// what the app must know of it before and after login (the map's tile sources).
import { z } from '../zod.ts';
import { endpoint } from './contract.ts';

const estado = z.enum(['ok', 'indisponível']);

/** Which part fails, and nothing else: no error messages, hosts or versions. */
const healthAnswer = z.object({
  status: estado,
  banco: estado.describe('O banco de dados.'),
  fotos: estado.describe('O armazenamento de fotos.'),
});

export const getHealth = endpoint({
  method: 'GET',
  path: '/api/health',
  tag: 'sistema',
  summary: 'Estado do servidor, do banco de dados e do armazenamento de fotos (para o balanceador).',
  allow: 'público',
  ok: { status: 200, description: 'Servidor pronto.', answer: healthAnswer },
  errors: [],
  errorAnswers: {
    503: { description: 'O banco de dados ou o armazenamento de fotos não responde.', answer: healthAnswer },
  },
});

const tilesAnswer = z
  .object({
    street: z.string().describe('Modelo de URL das ruas ({z}/{x}/{y}).'),
    satellite: z.string().describe('Modelo de URL do satélite.'),
    download: z.string().nullable().describe('Fonte do Download do Mapa; null: sem download offline.'),
  })
  .describe('Camadas de mapa.');

export const getConfig = endpoint({
  method: 'GET',
  path: '/api/config',
  tag: 'sistema',
  summary: 'Configuração pública desta instalação (camadas de mapa, entrada pela conta da empresa).',
  allow: 'público',
  ok: {
    status: 200,
    description: 'A configuração.',
    answer: z.object({
      tiles: tilesAnswer,
      oidc: z
        .object({ nome: z.string().describe('As palavras do botão (OIDC_NOME).') })
        .nullable()
        .describe('A entrada pela conta da empresa (OpenID Connect), quando configurada.'),
    }),
  },
});

/** The map's tile URL templates ({z}/{x}/{y}). */
export type TileConfig = z.output<typeof tilesAnswer>;
