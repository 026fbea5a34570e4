import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CENTRO, POSTE_CAMPOS, unidadeForm } from './support/fixtures.ts';
import {
  createCliente,
  createCookie,
  createFieldProject,
  createTestContext,
  fakeJpeg,
  type TestContext,
  uploadRecord,
  zonaId,
} from './support/test-app.ts';

// Inside 'Zona Batel' of docs/samples/zoneamento-curitiba.kml.
const BATEL = { lat: -25.435, lng: -49.265 };

const unidade = (id: string, projeto: string, extra: Record<string, string> = {}) =>
  unidadeForm(id, projeto, {
    dataHora: String(Date.UTC(2026, 10, 20, 14, 30)),
    precisao: '4.5',
    numero: '120',
    ...extra,
  });

describe('uploads of collected records (units and poles)', () => {
  let ctx: TestContext;
  let admin: string;
  let tecnico: string;
  let outroTecnico: string;
  let supervisorB: string;
  let projeto: { _id: string; zonas: { _id: string; label: string }[] };

  const upload = (
    path: string,
    fields: Record<string, string>,
    fotos: Buffer[] = [],
    cookie = tecnico,
    names?: string[],
  ) => uploadRecord(ctx.app, path, fields, { fotos, cookie, ...(names ? { names } : {}) });
  const count = async (table: string) =>
    (await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]?.n ?? -1;

  beforeAll(async () => {
    ctx = await createTestContext();
    const campo = await createFieldProject(ctx.app, ctx.db, {
      nome: 'Campo',
      cliente: 'A',
      fluxos: ['hc', 'poste'],
    });
    const { cliente: clienteA } = campo;
    ({ admin, tecnicoCookie: tecnico } = campo);
    projeto = { _id: campo.projeto, zonas: campo.zonas };
    const clienteB = await createCliente(ctx.app, admin, 'B');
    const session = (options: Parameters<typeof createCookie>[2]) => createCookie(ctx.app, ctx.db, options);
    outroTecnico = await session({
      roles: ['tecnico'],
      cliente: clienteA,
      zonas: [zonaId(projeto, 'Zona Batel')],
    });
    supervisorB = await session({ roles: ['supervisor'], cliente: clienteB });
  });
  afterAll(async () => ctx.close());

  it('stores a unit with three photos in its zone, echoes its id, and serves the same bytes back', async () => {
    const id = crypto.randomUUID();
    const fotos = [fakeJpeg(), fakeJpeg(), fakeJpeg()];
    const response = await upload('unidade', unidade(id, projeto._id), fotos);
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      _id: id,
      tipoUnidade: 'SDU',
      numero: '120',
      precisao: 4.5,
      coordenadas: CENTRO,
      dataHora: Date.UTC(2026, 10, 20, 14, 30),
      coletado: true,
      adicionadoApp: true,
    });
    expect(body.sincronizadoEm).toBeGreaterThan(0);
    expect(body.zona).toBe(zonaId(projeto, 'Zona Centro'));

    const urls = (
      await ctx.app.inject({ method: 'GET', url: `/api/unidade/${id}/fotos`, headers: { cookie: tecnico } })
    ).json();
    expect(urls).toEqual([0, 1, 2].map((slot) => `/api/fotos/${id}/${slot}`));
    for (const [slot, url] of urls.entries()) {
      const photo = await ctx.app.inject({ method: 'GET', url, headers: { cookie: tecnico } });
      expect(photo.statusCode).toBe(200);
      expect(photo.headers['content-type']).toBe('image/jpeg');
      expect(photo.rawPayload.equals(fotos[slot] as Buffer)).toBe(true);
    }
    const byZone = (
      await ctx.app.inject({
        method: 'GET',
        url: `/api/unidade/getByZona?id=${body.zona}`,
        headers: { cookie: tecnico },
      })
    ).json();
    expect(byZone.map((r: { _id: string }) => r._id)).toContain(id);
  });

  it('keeps photo slots as the device numbered them (foto3 without foto2)', async () => {
    const id = crypto.randomUUID();
    const response = await upload('unidade', unidade(id, projeto._id), [fakeJpeg(), fakeJpeg()], tecnico, [
      '0.jpg',
      '2.jpg',
    ]);
    expect(response.json().fotos).toEqual([`/api/fotos/${id}/0`, `/api/fotos/${id}/2`]);
  });

  it('answers a replay of the same id with the stored record (200) and never a second one', async () => {
    const id = crypto.randomUUID();
    const fotos = [fakeJpeg()];
    expect((await upload('unidade', unidade(id, projeto._id), fotos)).statusCode).toBe(201);
    const replay = await upload('unidade', unidade(id, projeto._id, { numero: '999' }), fotos);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toMatchObject({ _id: id, numero: '120' });
    const rows = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM registros WHERE id = $1', [
      id,
    ]);
    expect(rows[0]?.n).toBe(1);
  });

  it('leaves exactly one record and one set of photos after twenty identical uploads at once', async () => {
    const id = crypto.randomUUID();
    const fotos = [fakeJpeg(), fakeJpeg()];
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => upload('unidade', unidade(id, projeto._id), fotos)),
    );
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(19);
    expect(responses.every((r) => r.json()._id === id)).toBe(true);
    const rows = await ctx.db.query<{ registros: number; fotos: number }>(
      `SELECT (SELECT count(*)::int FROM registros WHERE id = $1) AS registros,
              (SELECT count(*)::int FROM fotos WHERE registro = $1) AS fotos`,
      [id],
    );
    expect(rows[0]).toEqual({ registros: 1, fotos: 2 });
  });

  it('stores a pole with its fields, and applies the pole form rules', async () => {
    const id = crypto.randomUUID();
    const fields = {
      id,
      projeto: projeto._id,
      coordenadas: JSON.stringify([CENTRO.lat, CENTRO.lng]),
      dataHora: String(Date.now()),
      ...POSTE_CAMPOS,
    };
    const ok = await upload('poste', fields, [fakeJpeg(), fakeJpeg()]);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({ _id: id, tipo: 'CONCRETO DUPLO T', aterramento: true });
    const outros = await upload('poste', { ...fields, id: crypto.randomUUID(), altura: 'OUTROS' });
    expect(outros.statusCode).toBe(400);
    expect(outros.json().message).toBe('Informe a observação quando a altura ou a carga for OUTROS.');
    const unidadeLinkada = await upload('unidade', unidade(crypto.randomUUID(), projeto._id, { drop: id }));
    expect(unidadeLinkada.json().drop).toBe(id);
  });

  it('refuses bad input with a Portuguese message and stores nothing, not even the photo row', async () => {
    const before = { registros: await count('registros'), fotos: await count('fotos') };
    const cases: [Record<string, string>, Buffer[], number, RegExp][] = [
      [
        unidade(crypto.randomUUID(), projeto._id, { numero: '' }),
        [fakeJpeg()],
        400,
        /O número é obrigatório\./,
      ],
      [unidade(crypto.randomUUID(), projeto._id, { numero: '12a' }), [], 400, /O número deve ser numérico\./],
      [
        unidade(crypto.randomUUID(), projeto._id, { tipoUnidade: 'MDU' }),
        [],
        400,
        /O nome do edifício é obrigatório\./,
      ],
      [unidade(crypto.randomUUID(), projeto._id, { tipoImovel: 'bar' }), [], 400, /Tipo de imóvel inválido/],
      [unidade('not-a-uuid', projeto._id), [], 400, /Identificador do registro inválido\./],
      [
        unidade(crypto.randomUUID(), projeto._id, { coordenadas: '{"lat":48.8,"lng":2.3}' }),
        [],
        400,
        /fora do Brasil/,
      ],
      [unidade(crypto.randomUUID(), projeto._id, { coordenadas: '' }), [], 400, /coordenadas/i],
      [
        unidade(crypto.randomUUID(), projeto._id),
        [Buffer.from('%PDF-1.4 not an image')],
        415,
        /não é uma imagem/,
      ],
      // Only the first bytes of these look right: a JPEG cut in half, a PNG signature before garbage, and a JPEG
      // whose header claims 10000×10000 pixels.
      [
        unidade(crypto.randomUUID(), projeto._id),
        [fakeJpeg(64 * 1024).subarray(0, 32 * 1024)],
        415,
        /incompleta/,
      ],
      [
        unidade(crypto.randomUUID(), projeto._id),
        [Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), crypto.randomBytes(4096)])],
        415,
        /incompleta/,
      ],
      [
        unidade(crypto.randomUUID(), projeto._id),
        [fakeJpeg(4096, { width: 10_000, height: 10_000 })],
        415,
        /10000×10000 pixels: o máximo é 64 megapixels/,
      ],
      [unidade(crypto.randomUUID(), crypto.randomUUID()), [], 400, /Projeto não encontrado\./],
    ];
    for (const [fields, fotos, status, message] of cases) {
      const response = await upload('unidade', fields, fotos);
      expect(response.statusCode, JSON.stringify(fields)).toBe(status);
      expect(response.json().message).toMatch(message);
    }
    const tooMany = await upload('unidade', unidade(crypto.randomUUID(), projeto._id), [
      fakeJpeg(),
      fakeJpeg(),
      fakeJpeg(),
      fakeJpeg(),
    ]);
    expect(tooMany.statusCode).toBe(413);
    expect(tooMany.json().message).toBe('Fotos demais para este registro.');
    const huge = await upload('unidade', unidade(crypto.randomUUID(), projeto._id), [
      fakeJpeg(16 * 1024 * 1024),
    ]);
    expect(huge.statusCode).toBe(413);
    expect(huge.json().message).toBe('A foto excede o tamanho máximo de 15 MB.');
    const notMultipart = await ctx.app.inject({
      method: 'POST',
      url: '/api/unidade',
      headers: { cookie: tecnico },
      payload: { id: 'x' },
    });
    expect(notMultipart.statusCode).toBe(415);
    expect({ registros: await count('registros'), fotos: await count('fotos') }).toEqual(before);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it('checks zones: uploads only to projects of the technician, reads only of their zones or client', async () => {
    const id = crypto.randomUUID();
    await upload('unidade', unidade(id, projeto._id), [fakeJpeg()]);
    const centro = zonaId(projeto, 'Zona Centro');
    const get = (url: string, cookie: string | undefined) =>
      ctx.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
    // Another technician of the same project, but of Zona Batel, sees neither the record nor its photo.
    expect((await get(`/api/unidade/getByZona?id=${centro}`, outroTecnico)).statusCode).toBe(403);
    expect((await get(`/api/unidade/${id}/fotos`, outroTecnico)).statusCode).toBe(403);
    expect((await get(`/api/fotos/${id}/0`, outroTecnico)).statusCode).toBe(403);
    expect((await get(`/api/fotos/${id}/0`, supervisorB)).statusCode).toBe(403);
    expect((await get(`/api/fotos/${id}/0`, undefined)).statusCode).toBe(401);
    expect((await get(`/api/fotos/${id}/0`, admin)).statusCode).toBe(200);
    // A record taken in Batel by the Batel technician lands in Batel.
    const batel = await upload(
      'unidade',
      unidade(crypto.randomUUID(), projeto._id, { coordenadas: JSON.stringify(BATEL) }),
      [],
      outroTecnico,
    );
    expect(batel.json().zona).toBe(zonaId(projeto, 'Zona Batel'));
    // A supervisor or an interpretador does not collect.
    expect(
      (await upload('unidade', unidade(crypto.randomUUID(), projeto._id), [], supervisorB)).statusCode,
    ).toBe(403);
    // Reusing another technician's record id is refused, not silently merged.
    const stolen = await upload('unidade', unidade(id, projeto._id), [], outroTecnico);
    expect(stolen.statusCode).toBe(409);
  });

  it('lists units and poles by project name for the back office', async () => {
    const units = (
      await ctx.app.inject({ method: 'GET', url: '/api/unidade/Campo', headers: { cookie: admin } })
    ).json();
    expect(units.length).toBeGreaterThan(3);
    const poles = (
      await ctx.app.inject({
        method: 'GET',
        url: '/api/poste/getByNomeProjeto/Campo',
        headers: { cookie: admin },
      })
    ).json();
    expect(poles.length).toBe(1);
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/unidade/Campo', headers: { cookie: supervisorB } }))
        .statusCode,
    ).toBe(403);
  });
});
