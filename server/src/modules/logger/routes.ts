// POST /api/logger: the app reports its failures (sync errors, failed saves) for support to read.
import type { FastifyInstance } from 'fastify';
import { log } from '@novus/domain/api/auth';
import { route } from '../../contract.ts';
import type { Database } from '../../db/database.ts';
import { insertLog } from './queries.ts';

export async function loggerRoutes(app: FastifyInstance, { db }: { db: Database }): Promise<void> {
  route(app, null, log, async ({ body: entry, request }) => {
    await insertLog(db, { ...entry, usuario: request.session?.sub ?? null });
    return undefined;
  });
}
