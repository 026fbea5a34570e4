// Two servers on one PostgreSQL database deliver each webhook event once (issue 27): two app instances, each with
// its own connection pool and dispatcher, take deliveries from the same outbox with FOR UPDATE SKIP LOCKED. The
// receiver counts by delivery id; each server's resolver counts the sends it made, so both are seen to take part.
import crypto from 'node:crypto';
import type dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Entrega } from '@novus/domain/api/webhooks';
import { buildApp } from '../src/app.ts';
import { type Database, openPostgres } from '../src/db/database.ts';
import { unidadeForm } from './support/fixtures.ts';
import {
  createFieldProject,
  createTestContext,
  fakeJpeg,
  type TestContext,
  uploadRecord,
} from './support/test-app.ts';

/** Records written in one statement, as a bulk import would: each a 'registro criado' (migration 0015's trigger). */
const EM_LOTE = 400;
/** Records uploaded through the API, half through each server, at the same time. */
const ENVIADOS = 20;

describe.skipIf(process.env.NOVUS_TEST_DB !== 'postgres')(
  'two servers deliver each webhook event once',
  () => {
    let ctx: TestContext;
    let second: Database;
    const apps: FastifyInstance[] = [];
    const sends = [0, 0];
    const porId = new Map<string, number>();
    let receiver: http.Server;
    let port = 0;

    beforeAll(async () => {
      ctx = await createTestContext();
      await ctx.app.close();
      // The same schema through a pool of its own, as another process would open it.
      const [schema] = await ctx.db.query<{ current_schema: string }>('SELECT current_schema()');
      const url = process.env.DATABASE_URL;
      if (!url || !schema) throw new Error('DATABASE_URL and a schema are required');
      second = openPostgres({ connectionString: url, schema: schema.current_schema });
      receiver = http.createServer((request, response) => {
        request.resume();
        request.on('end', () => {
          const id = String(request.headers['x-novus-entrega']);
          porId.set(id, (porId.get(id) ?? 0) + 1);
          // A receiver that takes a moment, so both servers have deliveries in flight together.
          setTimeout(() => response.writeHead(204).end(), 5);
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      port = (receiver.address() as AddressInfo).port; // listening on TCP: address() is an AddressInfo
      for (const [index, db] of [ctx.db, second].entries()) {
        const app = await buildApp({
          db,
          tokens: ctx.tokens,
          blobs: ctx.blobs,
          webhooks: {
            allowPrivate: true,
            pollMs: 100,
            concurrency: 4,
            // Each server resolves the receiver's name once per send: its own count of what it sent.
            resolve: async (): Promise<dns.LookupAddress[]> => {
              sends[index] = (sends[index] ?? 0) + 1;
              return [{ address: '127.0.0.1', family: 4 }];
            },
          },
        });
        await app.ready();
        apps.push(app);
      }
    });
    afterAll(async () => {
      for (const app of apps) await app.close();
      await second?.close();
      await new Promise<void>((resolve) => receiver?.close(() => resolve()) ?? resolve());
      await ctx?.close();
    });

    it('sends every event once, both servers taking part', async () => {
      const [a, b] = apps;
      if (!a || !b) throw new Error('two apps');
      const { admin, projeto, tecnicoCookie } = await createFieldProject(a, ctx.db, {
        nome: 'Dois',
        fluxos: ['hc'],
      });
      const created = await a.inject({
        method: 'POST',
        url: `/api/projeto/${projeto}/webhooks`,
        headers: { cookie: admin },
        payload: { url: `http://receptor.exemplo:${port}/`, eventos: ['registro criado'] },
      });
      expect(created.statusCode, created.body).toBe(201);
      const webhook = created.json<{ _id: string }>()._id;
      const registrationLookups = sends[0] ?? 0;

      await ctx.db.query(
        `INSERT INTO registros (id, fluxo, projeto, lat, lng, geom, data_hora, sincronizado_em, coletado,
         adicionado_app, dados)
       SELECT gen_random_uuid(), 'hc', $1, -25.435, -49.275, ST_SetSRID(ST_MakePoint(-49.275, -25.435), 4326),
         now(), now(), true, true, jsonb_build_object('numero', n::text)
       FROM generate_series(1, $2::int) n`,
        [projeto, EM_LOTE],
      );
      const uploads = await Promise.all(
        Array.from({ length: ENVIADOS }, (_, i) =>
          uploadRecord(i % 2 === 0 ? a : b, 'unidade', unidadeForm(crypto.randomUUID(), projeto), {
            fotos: [fakeJpeg(1000 + i)],
            cookie: tecnicoCookie,
          }),
        ),
      );
      for (const upload of uploads) expect(upload.statusCode, upload.body).toBe(201);

      const total = EM_LOTE + ENVIADOS;
      const deadline = Date.now() + 60_000;
      while (porId.size < total && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      // A moment more: a second send of anything would show now.
      await new Promise((resolve) => setTimeout(resolve, 500));

      expect(porId.size).toBe(total);
      expect([...porId.values()].filter((count) => count !== 1)).toEqual([]);
      const [estado] = await ctx.db.query<{ entregue: number; tentativas: number }>(
        `SELECT count(*) FILTER (WHERE status = 'entregue')::int AS entregue, sum(tentativas)::int AS tentativas
       FROM webhook_entregas WHERE webhook = $1`,
        [webhook],
      );
      expect(estado).toEqual({ entregue: total, tentativas: total });
      const log = await a.inject({
        method: 'GET',
        url: `/api/webhook/${webhook}/entregas?status=entregue`,
        headers: { cookie: admin },
      });
      expect(log.json<Entrega[]>()).toHaveLength(200);
      // Every send was made by one of the two, and each made some.
      expect((sends[0] ?? 0) - registrationLookups + (sends[1] ?? 0)).toBe(total);
      expect(sends[0] ?? 0).toBeGreaterThan(registrationLookups);
      expect(sends[1] ?? 0).toBeGreaterThan(0);
    });
  },
);
