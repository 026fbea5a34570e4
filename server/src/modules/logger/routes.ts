// POST /api/logger: the app reports its failures (sync errors, failed saves) for support to read.
import type { FastifyInstance } from 'fastify';
import { z } from '@novus/domain/zod';
import type { Database } from '../../db/database.ts';
import { parseInput } from '../../errors.ts';
import { insertLog } from './queries.ts';

export const logSchema = z.object({
  severity: z.string().trim().min(1).max(20).default('ERROR'),
  message: z.string({ error: 'A mensagem do log é obrigatória.' }).max(20_000, 'Mensagem longa demais.'),
  extras: z.unknown().optional(),
});

export async function loggerRoutes(app: FastifyInstance, { db }: { db: Database }): Promise<void> {
  // A technician whose session expired must still be able to report why sync failed: no role required.
  app.post('/api/logger', { bodyLimit: 64 * 1024 }, async (request, reply) => {
    const entry = parseInput(logSchema, request.body);
    await insertLog(db, { ...entry, usuario: request.session?.sub ?? null });
    return reply.status(204).send();
  });
}
