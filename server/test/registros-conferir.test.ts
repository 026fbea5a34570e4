// The phones as the last backup (issue 39), the server's half: a record deleted in the back office is remembered,
// a phone asks which of the records it kept the server lacks (POST /api/registros/conferir), gives back the lost
// files of a held record's photos, and a record sent again is audited and logged.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { REENVIO } from '../src/modules/registros/upload.ts';
import { CENTRO, pontoIP, unidadeForm } from './support/fixtures.ts';
import {
  createFieldProject,
  createProjeto,
  createSession,
  createTestContext,
  fakeJpeg,
  multipart,
  type ProjetoCriado,
  type TestContext,
  uploadRecord,
} from './support/test-app.ts';

const sha256 = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');

interface Conferido {
  id: string;
  estado: string;
  fotosFaltando: string[];
}

describe('the phones as the last backup: deletions remembered, what the server lacks, photos given back', () => {
  let ctx: TestContext;
  let projeto: string;
  let admin: string;
  let adminId: string;
  let tecnico: string;
  let tecnicoId: string;
  /** Another technician of the same zone. */
  let colega: string;
  let supervisor: string;
  /** A project of the same client with preloaded IP points, and its points. */
  let projetoPontos: string;
  let pontos: { _id: string }[];

  const count = async (sql: string, params: unknown[] = []) =>
    (await ctx.db.query<{ n: number }>(sql, params))[0]?.n ?? -1;
  const excluir = (id: string, cookie: string) =>
    ctx.app.inject({ method: 'DELETE', url: `/api/registro/${id}`, headers: { cookie } });
  const conferirRaw = (payload: unknown, cookie = tecnico) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/registros/conferir',
      headers: { cookie },
      payload: payload as object,
    });
  /** The answer for each record asked, by id. */
  async function conferir(
    registros: { id: string; fluxo: string; fotos?: string[]; coleta?: string }[],
    cookie = tecnico,
  ): Promise<Record<string, Omit<Conferido, 'id'>>> {
    const response = await conferirRaw({ registros }, cookie);
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json<{ registros: Conferido[] }>().registros;
    expect(answer.map((r) => r.id)).toEqual(registros.map((r) => r.id));
    return Object.fromEntries(answer.map(({ id, ...rest }) => [id, rest]));
  }
  /** A unit sent by a technician, with these photos; its id. */
  async function unidade(cookie: string, fotos: Buffer[] = [fakeJpeg()], extra: Record<string, string> = {}) {
    const id = crypto.randomUUID();
    const response = await uploadRecord(ctx.app, 'unidade', unidadeForm(id, projeto, extra), {
      fotos,
      cookie,
    });
    expect(response.statusCode, response.body).toBe(201);
    return id;
  }
  const restaurar = (id: string, fotos: { slot: number; data: Buffer }[], cookie = tecnico) => {
    const body = multipart(
      {},
      fotos.map(({ slot, data }) => ({
        field: 'fotos',
        filename: `${slot}.jpg`,
        contentType: 'image/jpeg',
        data,
      })),
    );
    return ctx.app.inject({
      method: 'POST',
      url: `/api/registros/${id}/fotos`,
      headers: { ...body.headers, cookie },
      payload: body.payload,
    });
  };
  const fotoBytes = async (id: string, slot: number) =>
    (await ctx.app.inject({ method: 'GET', url: `/api/fotos/${id}/${slot}`, headers: { cookie: admin } }))
      .rawPayload;
  const auditoria = (entidadeId: string) =>
    ctx.db.query<{ usuario: string; entidade: string; acao: string; antes: unknown; depois: unknown }>(
      'SELECT usuario, entidade, acao, antes, depois FROM auditoria WHERE entidade_id = $1 ORDER BY id',
      [entidadeId],
    );

  beforeAll(async () => {
    ctx = await createTestContext();
    const campo = await createFieldProject(ctx.app, ctx.db, {
      nome: 'Cópias de segurança',
      fluxos: ['hc', 'ip'],
      firstName: 'Ana',
    });
    projeto = campo.projeto;
    admin = campo.admin;
    adminId = campo.administrador.id;
    tecnico = campo.tecnicoCookie;
    tecnicoId = campo.tecnico.id;
    const centro = campo.zonas.find((zona) => zona.label === 'Zona Centro')?._id ?? '';
    colega = (
      await createSession(ctx.app, ctx.db, {
        roles: ['tecnico'],
        cliente: campo.cliente,
        firstName: 'Bruno',
        zonas: [centro],
      })
    ).cookie;
    supervisor = (await createSession(ctx.app, ctx.db, { roles: ['supervisor'], cliente: campo.cliente }))
      .cookie;
    // A second project of the client with preloaded IP points in Zona Centro.
    const comPontos = await createProjeto<ProjetoCriado & { pontosIP: { _id: string }[] }>(ctx.app, admin, {
      nome: 'Pontos de IP',
      cliente: campo.cliente,
      fluxos: ['ip'],
      pontosIP: JSON.stringify([
        pontoIP(1, [CENTRO.lat, CENTRO.lng], 'C-1'),
        pontoIP(2, [-25.436, -49.276], 'C-1'),
      ]),
    });
    projetoPontos = comPontos._id;
    pontos = comPontos.pontosIP;
    await ctx.db.query(
      `INSERT INTO usuario_zonas (usuario, zona)
       SELECT u.id, z.id FROM usuarios u, zonas z WHERE u.id = $1 AND z.projeto = $2 AND z.label = 'Zona Centro'`,
      [tecnicoId, comPontos._id],
    );
  });
  afterAll(async () => ctx.close());

  describe('DELETE /api/registro/:id', () => {
    it('deletes a record for the administrador: gone with its photo rows, remembered, audited', async () => {
      const id = await unidade(tecnico, [fakeJpeg(), fakeJpeg()]);
      const response = await excluir(id, admin);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ _id: id });
      expect(await count('SELECT count(*)::int AS n FROM registros WHERE id = $1', [id])).toBe(0);
      expect(await count('SELECT count(*)::int AS n FROM fotos WHERE registro = $1', [id])).toBe(0);
      const [tumulo] = await ctx.db.query<Record<string, unknown>>(
        'SELECT fluxo, projeto, tecnico, excluido_por, excluido_em FROM registros_excluidos WHERE id = $1',
        [id],
      );
      expect(tumulo).toMatchObject({ fluxo: 'hc', projeto, tecnico: tecnicoId, excluido_por: adminId });
      expect(tumulo?.excluido_em).toBeInstanceOf(Date);
      expect(await auditoria(id)).toEqual([
        {
          usuario: adminId,
          entidade: 'registro',
          acao: 'excluir',
          antes: expect.objectContaining({
            fluxo: 'hc',
            projeto: 'Cópias de segurança',
            tecnico: 'Ana de Tal',
          }),
          depois: null,
        },
      ]);
      const lido = await ctx.app.inject({
        method: 'GET',
        url: `/api/registro/${id}`,
        headers: { cookie: admin },
      });
      expect(lido.statusCode).toBe(404);
      // Deleted twice: not there any more.
      const again = await excluir(id, admin);
      expect(again.statusCode).toBe(404);
      expect(again.json().message).toBe('Registro não encontrado.');
    });

    it('refuses the supervisor and the technician, leaving the record, and answers 404 for an unknown id', async () => {
      const id = await unidade(tecnico);
      for (const cookie of [supervisor, tecnico]) {
        const response = await excluir(id, cookie);
        expect(response.statusCode).toBe(403);
        expect(response.json().message).toBeTruthy();
      }
      expect((await excluir(id, '')).statusCode).toBe(401);
      expect(await count('SELECT count(*)::int AS n FROM registros WHERE id = $1', [id])).toBe(1);
      expect(await count('SELECT count(*)::int AS n FROM registros_excluidos WHERE id = $1', [id])).toBe(0);
      const unknown = await excluir(crypto.randomUUID(), admin);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toBe('Registro não encontrado.');
      expect((await excluir('nao-e-id', admin)).statusCode).toBe(400);
    });
  });

  describe('POST /api/registros/conferir', () => {
    it('tells held, lacking, deleted on purpose and another technician’s records apart', async () => {
      const foto = fakeJpeg();
      const guardado = await unidade(tecnico, [foto]);
      const excluido = await unidade(tecnico);
      expect((await excluir(excluido, admin)).statusCode).toBe(200);
      const doColega = await unidade(colega);
      const doColegaExcluido = await unidade(colega);
      expect((await excluir(doColegaExcluido, admin)).statusCode).toBe(200);
      const faltando = crypto.randomUUID();

      const answer = await conferir([
        { id: guardado, fluxo: 'hc', fotos: [sha256(foto)] },
        { id: faltando, fluxo: 'hc', fotos: [sha256(fakeJpeg())] },
        { id: excluido, fluxo: 'hc', fotos: [] },
        { id: doColega, fluxo: 'hc', fotos: [] },
        { id: doColegaExcluido, fluxo: 'hc' },
      ]);
      expect(answer).toEqual({
        [guardado]: { estado: 'guardado', fotosFaltando: [] },
        [faltando]: { estado: 'faltando', fotosFaltando: [] },
        [excluido]: { estado: 'excluido', fotosFaltando: [] },
        [doColega]: { estado: 'alheio', fotosFaltando: [] },
        [doColegaExcluido]: { estado: 'alheio', fotosFaltando: [] },
      });
      // The same id under another flow is not the caller's record; ids are answered in lower case.
      const response = await conferirRaw({ registros: [{ id: guardado.toUpperCase(), fluxo: 'poste' }] });
      expect(response.json()).toEqual({ registros: [{ id: guardado, estado: 'alheio', fotosFaltando: [] }] });
      // The colleague hears of their own, and the administrador of every one.
      expect(
        await conferir(
          [
            { id: doColega, fluxo: 'hc' },
            { id: doColegaExcluido, fluxo: 'hc' },
          ],
          colega,
        ),
      ).toEqual({
        [doColega]: { estado: 'guardado', fotosFaltando: [] },
        [doColegaExcluido]: { estado: 'excluido', fotosFaltando: [] },
      });
      expect((await conferir([{ id: guardado, fluxo: 'hc' }], admin))[guardado]?.estado).toBe('guardado');
      expect(await conferir([])).toEqual({});
    });

    it('names the photos of a held record whose files the store lost, and only those', async () => {
      const fotos = [fakeJpeg(), fakeJpeg(), fakeJpeg()];
      const id = await unidade(tecnico, fotos);
      await ctx.blobs.remove(sha256(fotos[1] as Buffer));
      const estranha = sha256(fakeJpeg());
      const answer = await conferir([{ id, fluxo: 'hc', fotos: [...fotos.map(sha256), estranha] }]);
      expect(answer[id]).toEqual({ estado: 'guardado', fotosFaltando: [sha256(fotos[1] as Buffer)] });
    });

    it('answers a preloaded point by the caller’s collection: lacking until collected, held after', async () => {
      const [ponto] = pontos;
      if (!ponto) throw new Error('no point');
      const coleta = crypto.randomUUID();
      expect((await conferir([{ id: ponto._id, fluxo: 'ip', coleta }]))[ponto._id]?.estado).toBe('faltando');
      const response = await uploadRecord(
        ctx.app,
        'ip',
        {
          id: ponto._id,
          coletaId: coleta,
          projeto: projetoPontos,
          coordenadas: JSON.stringify(CENTRO),
          dataHora: String(Date.UTC(2026, 10, 24, 10)),
          possuiIP: 'true',
          possuiUsoMutuo: 'false',
        },
        { fotos: [fakeJpeg()], cookie: tecnico },
      );
      expect(response.statusCode, response.body).toBe(200);
      expect((await conferir([{ id: ponto._id, fluxo: 'ip', coleta }]))[ponto._id]?.estado).toBe('guardado');
      // Another collection of the same point by the same phone is not this one.
      expect(
        (await conferir([{ id: ponto._id, fluxo: 'ip', coleta: crypto.randomUUID() }]))[ponto._id]?.estado,
      ).toBe('faltando');
    });

    it('refuses bad questions in Portuguese, never with a 500, and callers who do not send records', async () => {
      const id = crypto.randomUUID();
      for (const payload of [
        {},
        { registros: 'abc' },
        { registros: [{ id: 'nao-e-id', fluxo: 'hc', fotos: [] }] },
        { registros: [{ id, fluxo: 'nenhum', fotos: [] }] },
        { registros: [{ id, fluxo: 'hc', fotos: ['nao-e-hash'] }] },
        { registros: [{ id, fluxo: 'hc', fotos: 'abc' }] },
        { registros: [null] },
        {
          registros: Array.from({ length: 501 }, () => ({ id: crypto.randomUUID(), fluxo: 'hc', fotos: [] })),
        },
      ]) {
        const response = await conferirRaw(payload);
        expect(response.statusCode, JSON.stringify(payload).slice(0, 100)).toBe(400);
        expect(response.json().message).toMatch(/registro|fluxo|hash|fotos|identificador/i);
      }
      expect((await conferirRaw({ registros: [] }, '')).statusCode).toBe(401);
      expect((await conferirRaw({ registros: [] }, supervisor)).statusCode).toBe(403);
    });
  });

  describe('POST /api/registros/:id/fotos', () => {
    it('stores the lost file of a held record’s photo when its bytes are the ones the record refers to', async () => {
      const fotos = [fakeJpeg(), fakeJpeg()];
      const id = await unidade(tecnico, fotos);
      await ctx.blobs.remove(sha256(fotos[0] as Buffer));
      expect((await conferir([{ id, fluxo: 'hc', fotos: fotos.map(sha256) }]))[id]?.fotosFaltando).toEqual([
        sha256(fotos[0] as Buffer),
      ]);

      const response = await restaurar(id, [{ slot: 0, data: fotos[0] as Buffer }]);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ restauradas: [0] });
      expect(sha256(await fotoBytes(id, 0))).toBe(sha256(fotos[0] as Buffer));
      expect((await conferir([{ id, fluxo: 'hc', fotos: fotos.map(sha256) }]))[id]?.fotosFaltando).toEqual(
        [],
      );
      // The administrador may too.
      expect((await restaurar(id, [{ slot: 1, data: fotos[1] as Buffer }], admin)).json()).toEqual({
        restauradas: [1],
      });
    });

    it('refuses other bytes (409, not kept), a slot the record has not, and another technician (403)', async () => {
      const foto = fakeJpeg();
      const id = await unidade(tecnico, [foto]);
      await ctx.blobs.remove(sha256(foto));
      const outra = fakeJpeg();
      const wrong = await restaurar(id, [{ slot: 0, data: outra }]);
      expect(wrong.statusCode, wrong.body).toBe(409);
      expect(wrong.json().message).toMatch(/não é a que o servidor guarda/);
      expect(await ctx.blobs.open(sha256(outra))).toBeUndefined();
      expect(await ctx.blobs.open(sha256(foto))).toBeUndefined();

      const slot = await restaurar(id, [{ slot: 3, data: foto }]);
      expect(slot.statusCode).toBe(400);
      expect(slot.json().message).toMatch(/Posição de foto inválida/);

      const alheio = await restaurar(id, [{ slot: 0, data: foto }], colega);
      expect(alheio.statusCode).toBe(403);
      expect((await restaurar(id, [{ slot: 0, data: foto }], supervisor)).statusCode).toBe(403);
      expect(await ctx.blobs.open(sha256(foto))).toBeUndefined();
      expect((await restaurar(crypto.randomUUID(), [{ slot: 0, data: foto }])).statusCode).toBe(404);
    });
  });

  describe('a record sent again', () => {
    it('is audited and logged when the upload says so, and stored as any upload', async () => {
      const lines: string[] = [];
      const app = await buildApp({
        db: ctx.db,
        tokens: ctx.tokens,
        blobs: ctx.blobs,
        logger: { stream: { write: (line) => lines.push(line) } },
      });
      await app.ready();
      try {
        const id = crypto.randomUUID();
        const response = await uploadRecord(app, 'unidade', unidadeForm(id, projeto, { [REENVIO]: '1' }), {
          fotos: [fakeJpeg()],
          cookie: tecnico,
        });
        expect(response.statusCode, response.body).toBe(201);
        expect(response.json()).not.toHaveProperty(REENVIO);
        expect(await auditoria(id)).toEqual([
          {
            usuario: tecnicoId,
            entidade: 'registro',
            acao: 'criar',
            antes: null,
            depois: expect.objectContaining({
              reenvio: true,
              fluxo: 'hc',
              projeto: 'Cópias de segurança',
              tecnico: 'Ana de Tal',
            }),
          },
        ]);
        const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
        expect(logged.filter((line) => line.msg === 'registro reenviado')).toEqual([
          expect.objectContaining({ registro: id, fluxo: 'hc', projeto, tecnico: tecnicoId }),
        ]);
        // A replay of it (its answer lost) is stored once and audited once.
        const replay = await uploadRecord(app, 'unidade', unidadeForm(id, projeto, { [REENVIO]: '1' }), {
          cookie: tecnico,
          fotos: [],
        });
        expect(replay.statusCode, replay.body).toBe(200);
        expect(await auditoria(id)).toHaveLength(1);
        // An ordinary upload is not audited.
        const comum = await unidade(tecnico);
        expect(await auditoria(comum)).toEqual([]);
      } finally {
        await app.close();
      }
    });
  });
});
