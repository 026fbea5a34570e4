// The photo stamp's server side (issue 26): a project setting, on by default, that the technician's project list
// carries to the device; and the SHA-256 of each photo's camera original, kept beside the stamped copy.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unidadeForm } from './support/fixtures.ts';
import {
  createFieldProject,
  createTestContext,
  fakeJpeg,
  FORM,
  formBody,
  sample,
  type TestContext,
  uploadRecord,
} from './support/test-app.ts';

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

describe('the photo stamp on the server', () => {
  let ctx: TestContext;
  let campo: Awaited<ReturnType<typeof createFieldProject>>;

  beforeAll(async () => {
    ctx = await createTestContext();
    campo = await createFieldProject(ctx.app, ctx.db, { nome: 'Carimbo', fluxos: ['hc'] });
  });
  afterAll(async () => ctx.close());

  const projetoDoTecnico = async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/projeto/getByUser',
      headers: { cookie: campo.tecnicoCookie },
    });
    return (response.json() as { _id: string; carimboFotos: boolean }[]).find(
      ({ _id }) => _id === campo.projeto,
    );
  };

  const editar = (fields: Record<string, string>) =>
    ctx.app.inject({
      method: 'PUT',
      url: `/api/projeto/${campo.projeto}`,
      headers: { ...FORM, cookie: campo.admin },
      payload: formBody({
        nome: 'Carimbo',
        cliente: campo.cliente,
        fluxos: 'hc',
        fuso: '22',
        kml: sample('zoneamento-curitiba.kml'),
        ...fields,
      }),
    });

  it('is on for a new project, off once the form says so, and left alone by a client that does not send it', async () => {
    expect((await projetoDoTecnico())?.carimboFotos).toBe(true);
    const off = await editar({ carimboFotos: 'false' });
    expect(off.statusCode, off.body).toBe(200);
    expect((await projetoDoTecnico())?.carimboFotos).toBe(false);
    const detail = await ctx.app.inject({
      method: 'GET',
      url: `/api/projeto/${campo.projeto}`,
      headers: { cookie: campo.admin },
    });
    expect(detail.json()).toMatchObject({ carimboFotos: false });
    // an API client of before issue 26 edits the project without the field: the setting stays as it was
    expect((await editar({})).statusCode).toBe(200);
    expect((await projetoDoTecnico())?.carimboFotos).toBe(false);
    expect((await editar({ carimboFotos: 'true' })).statusCode).toBe(200);
    expect((await projetoDoTecnico())?.carimboFotos).toBe(true);
  });

  it('keeps each photo’s original SHA-256 beside the stamped photo, by slot', async () => {
    const id = crypto.randomUUID();
    const originais = [sha256('original 0'), null, sha256('original 2')];
    const response = await uploadRecord(
      ctx.app,
      'unidade',
      { ...unidadeForm(id, campo.projeto), fotosOriginais: JSON.stringify(originais) },
      {
        fotos: [fakeJpeg(), fakeJpeg(), fakeJpeg()],
        names: ['0.jpg', '1.jpg', '2.jpg'],
        cookie: campo.tecnicoCookie,
      },
    );
    expect(response.statusCode, response.body).toBe(201);
    const rows = await ctx.db.query<{ slot: number; sha256_original: string | null }>(
      'SELECT slot, sha256_original FROM fotos WHERE registro = $1 ORDER BY slot',
      [id],
    );
    expect(rows).toEqual([
      { slot: 0, sha256_original: originais[0] },
      { slot: 1, sha256_original: null },
      { slot: 2, sha256_original: originais[2] },
    ]);
    // the list is the envelope's, not one of the flow's fields
    const dados = await ctx.db.query<{ dados: Record<string, unknown> }>(
      'SELECT dados FROM registros WHERE id = $1',
      [id],
    );
    expect(dados[0]?.dados).not.toHaveProperty('fotosOriginais');
  });

  it.each([
    ['not JSON', '[oops', 'Lista de fotos originais inválida.'],
    ['not a hash', JSON.stringify(['abc']), 'Hash de foto original inválido.'],
    ['not a list', JSON.stringify({ 0: sha256('x') }), 'Lista de fotos originais inválida.'],
    [
      'longer than the flow’s slots',
      JSON.stringify(Array(20).fill(sha256('x'))),
      'Lista de fotos originais inválida.',
    ],
  ])(
    'refuses a list of originals %s with a 400 in Portuguese, storing nothing',
    async (_name, list, message) => {
      const id = crypto.randomUUID();
      const response = await uploadRecord(
        ctx.app,
        'unidade',
        { ...unidadeForm(id, campo.projeto), fotosOriginais: list },
        { fotos: [fakeJpeg()], cookie: campo.tecnicoCookie },
      );
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain(message);
      expect(await ctx.db.query('SELECT 1 FROM registros WHERE id = $1', [id])).toHaveLength(0);
    },
  );
});
