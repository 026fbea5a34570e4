// GET /api/health: whether this server can do its work, for a load balancer (HTTP status) and an operator (which
// part fails). Public, so it tells nothing else: no error messages, hosts or versions (domain/src/api/sistema.ts).
import type { FastifyInstance } from 'fastify';
import type { AnswerInputOf } from '@novus/domain/api/contract';
import * as api from '@novus/domain/api/sistema';
import { route, SENT } from '../../contract.ts';
import type { Database } from '../../db/database.ts';
import type { BlobStore } from '../../storage/blob-store.ts';

/** A part that has not answered by then counts as failing: a load balancer's probe must not hang. */
const CHECK_TIMEOUT_MS = 3000;

type Estado = 'ok' | 'indisponível';

export async function healthRoutes(
  app: FastifyInstance,
  { db, blobs }: { db: Database; blobs: BlobStore },
): Promise<void> {
  route(app, null, api.getHealth, async ({ request, reply }) => {
    const [banco, fotos] = await Promise.all([
      probe(() => db.query('SELECT 1')),
      probe(async () => {
        await blobs.check?.();
      }),
    ]);
    const falhas = [banco, fotos].filter((estado) => estado.falha !== undefined);
    // The reason goes to the log, for the operator; the answer says only which part fails.
    for (const { falha } of falhas) request.log.warn({ err: falha }, 'health check failed');
    // the 503 says the same: which part fails
    const body: AnswerInputOf<typeof api.getHealth> = {
      status: falhas.length === 0 ? 'ok' : 'indisponível',
      banco: banco.estado,
      fotos: fotos.estado,
    };
    void reply.header('cache-control', 'no-store');
    if (falhas.length === 0) return body;
    void reply.status(503).send(body);
    return SENT;
  });
}

async function probe(check: () => Promise<unknown>): Promise<{ estado: Estado; falha?: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return { estado: 'ok' };
  } catch (error) {
    return { estado: 'indisponível', falha: error };
  } finally {
    clearTimeout(timer);
  }
}
