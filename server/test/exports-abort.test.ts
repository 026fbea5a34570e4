// A download cut off half-way (the supervisor closes the tab) must give back what the export held: the cursor,
// its database connection, and on PGlite the database itself. Over real HTTP, since only a socket can be cut.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLOWS } from '@novus/domain/flows/registry';
import { registrosQuery } from '../src/modules/export/queries.ts';
import { csvStream } from '../src/modules/export/writers.ts';
import {
  createAdminCliente,
  createCookie,
  createProjeto,
  createTestContext,
  type TestContext,
} from './support/test-app.ts';

const ROWS = 20_000;

describe('an export cut off half-way', () => {
  let ctx: TestContext;
  let base: string;
  let supervisor: string;
  let projeto: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    const { admin, cliente } = await createAdminCliente(ctx.app, ctx.db, 'Copel');
    ({ _id: projeto } = await createProjeto(ctx.app, admin, {
      nome: 'Grande',
      cliente,
      fluxos: ['hc', 'bdgd'],
    }));
    supervisor = await createCookie(ctx.app, ctx.db, { roles: ['supervisor'], cliente });
    for (const fluxo of ['hc', 'bdgd']) {
      await ctx.db.query(
        `INSERT INTO registros (id, fluxo, projeto, lat, lng, geom, data_hora, coletado, dados)
         SELECT gen_random_uuid(), $2, $1, -25.435 + i * 1e-7, -49.275, ST_SetSRID(ST_MakePoint(-49.275, -25.435 + i * 1e-7), 4326),
           now() - i * interval '1 second', true,
           jsonb_build_object('numero', i::text, 'ativo', 'Poste', 'observacao', repeat('texto longo ', 20))
         FROM generate_series(1, ${ROWS}) i`,
        [projeto, fluxo],
      );
    }
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const address = ctx.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    base = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    // fetch keeps its connections alive and the server's close waits for them (graceful shutdown: issue 13).
    ctx.app.server.closeAllConnections();
    await ctx.close();
  });

  it.each([
    ['CSV', () => `/api/extrator/${projeto}/unidades.csv`],
    ['KML', () => `/api/unidade/${projeto}/kml`],
    ['BDGD zip', () => `/api/bdgd/${projeto}/kml`],
  ])('%s: the server answers the next request at once', async (_, url) => {
    const controller = new AbortController();
    const response = await fetch(`${base}${url()}`, {
      headers: { cookie: supervisor },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body?.getReader();
    const first = await reader?.read();
    expect(first?.value?.length ?? 0).toBeGreaterThan(0);
    controller.abort();
    await reader?.cancel().catch(() => undefined);
    const started = Date.now();
    const next = await fetch(`${base}/api/projeto/${projeto}/datas`, { headers: { cookie: supervisor } });
    expect(next.status).toBe(200);
    expect(await next.json()).not.toHaveLength(0);
    // Generous: what matters is that it answers, not in how long; a held cursor never answers on PGlite.
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('a CSV written in parts drops the part read ahead when it is cut off', async () => {
    const unidades = FLOWS.find((flow) => flow.key === 'hc')?.exports.csv[0];
    if (unidades?.kind !== 'registros') throw new Error('the units CSV is a records CSV');
    const query = registrosQuery(unidades.colunas, { projeto, fluxos: ['hc'] });
    const headers = unidades.colunas.map((coluna) => coluna.header);
    const stream = csvStream(ctx.db, query, headers, 2_000);
    let bytes = 0;
    for await (const chunk of stream) {
      bytes += Buffer.byteLength(chunk as Buffer);
      // Past the first part: the next is being read ahead.
      if (bytes > 1_000_000) break;
    }
    // This export's COPYs only (its project id is written into their SQL): other test files run COPYs of their own
    // on the same cluster at the same time.
    const copies = async () =>
      ctx.db.engine === 'postgres'
        ? (
            await ctx.db.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM pg_stat_activity
               WHERE state = 'active' AND query LIKE 'COPY%' AND position($1 in query) > 0`,
              [projeto],
            )
          )[0]?.n
        : 0;
    await expect.poll(copies, { timeout: 10_000 }).toBe(0);
    const next = await fetch(`${base}/api/projeto/${projeto}/datas`, { headers: { cookie: supervisor } });
    expect(next.status).toBe(200);
  });
});
