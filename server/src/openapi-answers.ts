// What each route answers on success, for the API documentation (openapi.ts). Documentation only: no route
// serialises or validates with these; server/test/openapi.test.ts checks real answers against them. Where the
// domain types an answer, the schema `satisfies` that type, so the compiler refuses a schema that drifts from it.
import { FLUXOS } from '@novus/domain/flows/keys';
import type { EstatisticaItem, MapaProjeto } from '@novus/domain/mapa/api';
import { z } from '@novus/domain/zod';

const uuid = z.uuid();
const fluxo = z.enum(FLUXOS);
const latLng = z.object({ lat: z.number(), lng: z.number() });

/** A file download or a stream: bytes, not JSON. */
export const binaryAnswer = z.string().meta({ format: 'binary' });

/** GET /api/projeto/:id/mapa/eventos: Server-Sent Events (domain/mapa/api.ts PontoEvento). */
export const eventosAnswer = z
  .string()
  .describe(
    'Eventos `ponto`, um por registro guardado no projeto; data: JSON { fluxo, id, lat, lng, status, tecnico, ' +
      'dataHora }. Um comentário a cada 25 s mantém a conexão aberta.',
  );

export const healthAnswer = z.object({
  status: z.enum(['ok', 'indisponível']),
  banco: z.enum(['ok', 'indisponível']).describe('O banco de dados.'),
  fotos: z.enum(['ok', 'indisponível']).describe('O armazenamento de fotos.'),
});

export const configAnswer = z.object({
  tiles: z
    .object({
      street: z.string().describe('Modelo de URL das ruas ({z}/{x}/{y}).'),
      satellite: z.string().describe('Modelo de URL do satélite.'),
      download: z.string().nullable().describe('Fonte do Download do Mapa; null: sem download offline.'),
    })
    .describe('Camadas de mapa.'),
});

const tecnico = z.object({ id: uuid, nome: z.string() });

export const mapaAnswer = z.object({
  projeto: z.object({ id: uuid, nome: z.string() }),
  zonas: z.array(z.object({ _id: uuid, label: z.string(), poligono: z.array(latLng) })),
  camadas: z.array(
    z.object({
      fluxo,
      ids: z.string().describe('Os ids dos pontos, 22 caracteres base64url cada.'),
      coords: z.array(z.number()).describe('lat, lng de cada ponto em milionésimos de grau, intercalados.'),
      status: z.string().describe('Um dígito por ponto: os bits de situação.'),
    }),
  ),
  tecnicos: z.array(tecnico),
}) satisfies z.ZodType<MapaProjeto>;

export const estatisticaAnswer = z.array(
  z.object({ _id: fluxo.describe('O fluxo.'), count: z.number().int() }),
) satisfies z.ZodType<EstatisticaItem[]>;
