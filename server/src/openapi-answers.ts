// What each route answers on success, for the API documentation (openapi.ts). Documentation only: no route
// serialises or validates with these; server/test/openapi.test.ts checks real answers against them. Where the
// domain types an answer, the schema `satisfies` that type, so the compiler refuses a schema that drifts from it.
import { z } from '@novus/domain/zod';

/** A file download or a stream: bytes, not JSON. */
export const binaryAnswer = z.string().meta({ format: 'binary' });

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
