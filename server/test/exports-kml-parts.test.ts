// A KML written in parts (issue 22: on PostgreSQL two COPYs at once, the next part read ahead while one is sent)
// is byte for byte the KML written in one piece, records without a date last, for any size of part.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLOWS } from '@novus/domain/flows/registry';
import { placemarksQuery } from '../src/modules/export/queries.ts';
import { kmlStream } from '../src/modules/export/writers.ts';
import {
  createAdminCliente,
  createProjeto,
  createTestContext,
  type TestContext,
} from './support/test-app.ts';

const ROWS = 7;

describe('a KML in parts', () => {
  let ctx: TestContext;
  let projeto: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    const { admin, cliente } = await createAdminCliente(ctx.app, ctx.db, 'Copel');
    ({ _id: projeto } = await createProjeto(ctx.app, admin, { nome: 'Partes', cliente, fluxos: ['hc'] }));
    // Two records share an instant (ordered by id then), one has no date and one no position (not placed).
    await ctx.db.query(
      `INSERT INTO registros (id, fluxo, projeto, lat, lng, geom, data_hora, coletado, dados)
       SELECT ('00000000-0000-4000-8000-00000000000' || i)::uuid, 'hc', $1,
         CASE WHEN i = 5 THEN NULL ELSE -25.435 + i * 1e-5 END, CASE WHEN i = 5 THEN NULL ELSE -49.275 END,
         CASE WHEN i = 5 THEN NULL ELSE ST_SetSRID(ST_MakePoint(-49.275, -25.435 + i * 1e-5), 4326) END,
         CASE WHEN i = 3 THEN NULL ELSE timestamptz '2026-11-20 12:00:00Z' + (i / 2) * interval '1 minute' END,
         true, jsonb_build_object('numero', i::text, 'observacao', 'casa <' || i || '> & "fundos"')
       FROM generate_series(1, ${ROWS}) i`,
      [projeto],
    );
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('is the KML in one piece, whatever the size of the parts', async () => {
    const unidades = FLOWS.find((flow) => flow.key === 'hc');
    if (!unidades) throw new Error('no units flow');
    const { kml, colunas } = unidades.exports;
    const write = async (parte: number) => {
      const query = placemarksQuery(
        colunas,
        { projeto, fluxos: ['hc'] },
        { nome: kml.nome, estilo: 's-hc', esquema: 'c-hc', origin: 'http://novus.test' },
      );
      const campos = colunas.map((coluna) => coluna.header);
      const layers = [
        { label: kml.label, cor: unidades.map.color, estilo: 's-hc', esquema: 'c-hc', campos, query },
      ];
      const chunks: Buffer[] = [];
      for await (const chunk of kmlStream(ctx.db, 'Partes', layers, parte)) {
        chunks.push(Buffer.from(chunk as Buffer));
      }
      return Buffer.concat(chunks).toString('utf8');
    };
    const whole = await write(1_000_000);
    const numeros = [...whole.matchAll(/<SimpleData name="NUMERO">(\d+)<\/SimpleData>/g)].map((m) => m[1]);
    // Collection order, the undated record last, the one without a position left out.
    expect(numeros).toEqual(['1', '2', '4', '6', '7', '3']);
    expect(whole).toContain('>casa &lt;2&gt; &amp; "fundos"</SimpleData>');
    for (const parte of [1, 2, 3, 4]) expect(await write(parte), `parts of ${parte}`).toBe(whole);
  });
});
