// The change feed (issue 27): a client following the cursor from the start reads each record once per change
// (upload, point collected, review decision, correction), also while uploads arrive and while an older transaction
// is still open; who may read which project; and the Portuguese 400s for a bad query, never a 500.
import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALTERACOES_TEXTS, cursorOf, idOfCursor } from '@novus/domain/api/alteracoes';
import { CENTRO, pontoIP, unidadeForm } from './support/fixtures.ts';
import {
  createAdminCliente,
  createCliente,
  createCookie,
  createProjeto,
  createSession,
  createTestContext,
  fakeJpeg,
  type ProjetoCriado,
  type TestContext,
  uploadRecord,
  zonaId,
} from './support/test-app.ts';

interface Entrada {
  cursor: string;
  evento: string;
  em: number;
  fluxo: string;
  versao: number | null;
  registro: { _id: string; versao: number; revisao: string; fotos: string[]; [campo: string]: unknown };
}
interface Pagina {
  alteracoes: Entrada[];
  proximo: string;
  fim: boolean;
}

/** Spots about 90 m apart inside 'Zona Centro', so no upload is another's near duplicate. */
const lugar = (n: number) => ({
  lat: -25.439 + (n % 10) * 0.0008,
  lng: -49.279 + Math.floor(n / 10) * 0.0008,
});
interface Ponto {
  _id: string;
  coordenadas: { lat: number; lng: number };
}
const onPostgres = process.env.NOVUS_TEST_DB === 'postgres';

describe('the change feed GET /api/alteracoes (issue 27)', () => {
  let ctx: TestContext;
  let admin: string;
  let tecnico: string;
  let tecnicoId: string;
  let supervisor: string;
  let outroSupervisor: string;
  let interpretador: string;
  let externo: string;
  /** The field project (not available to Interpres), with preloaded IP points. */
  let projeto: string;
  /** A project of the same client made available to Interpres. */
  let interpres: string;
  let pontos: Ponto[];
  let spot = 0;

  const get = (url: string, cookie: string) => ctx.app.inject({ method: 'GET', url, headers: { cookie } });
  const post = (url: string, cookie: string, payload: object) =>
    ctx.app.inject({ method: 'POST', url, headers: { cookie }, payload });

  const pagina = async (
    cookie: string,
    { de = projeto, desde, limite }: { de?: string; desde?: string; limite?: number } = {},
  ): Promise<Pagina> => {
    const query = new URLSearchParams({ projeto: de });
    if (desde !== undefined) query.set('desde', desde);
    if (limite !== undefined) query.set('limite', String(limite));
    const response = await get(`/api/alteracoes?${query.toString()}`, cookie);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Pagina>();
  };

  /**
   * Follows the cursor until it has passed every change the project had when called: every entry read, and the
   * cursor to go on from. A transaction of another test of this database may hold the feed back a moment (that is
   * the feed's rule): `fim` before then is read again after a pause.
   */
  const lerTudo = async (desde?: string, limite = 1000, cookie = admin) => {
    const [{ ultimo } = { ultimo: '0' }] = await ctx.db.query<{ ultimo: string }>(
      'SELECT COALESCE(max(id), 0)::text AS ultimo FROM alteracoes WHERE projeto = $1',
      [projeto],
    );
    const lidas: Entrada[] = [];
    let cursor = desde;
    for (const limiteDeTempo = Date.now() + 30_000; ;) {
      const page = await pagina(cookie, { ...(cursor === undefined ? {} : { desde: cursor }), limite });
      expect(page.alteracoes.length).toBeLessThanOrEqual(limite);
      lidas.push(...page.alteracoes);
      cursor = page.proximo;
      if (page.fim && BigInt(idOfCursor(cursor) ?? '0') >= BigInt(ultimo)) return { lidas, cursor };
      if (page.fim) {
        expect(Date.now(), `the feed stayed behind change ${ultimo}`).toBeLessThan(limiteDeTempo);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  };

  const enviar = async (campos: Record<string, string> = {}, fotos = [fakeJpeg()]) => {
    const id = campos.id ?? crypto.randomUUID();
    const response = await uploadRecord(
      ctx.app,
      'unidade',
      unidadeForm(id, projeto, {
        precisao: '4',
        coordenadas: JSON.stringify(lugar((spot += 1))),
        ...campos,
      }),
      { fotos, cookie: tecnico },
    );
    return { id, response };
  };

  beforeAll(async () => {
    ctx = await createTestContext();
    let cliente: string;
    ({ admin, cliente } = await createAdminCliente(ctx.app, ctx.db, 'Feed'));
    // Points loaded by the back office are not field records yet: they come into the feed when collected.
    const criado = await createProjeto<ProjetoCriado & { pontosIP: Ponto[] }>(ctx.app, admin, {
      nome: 'Feed',
      cliente,
      fluxos: ['hc', 'ip'],
      pontosIP: JSON.stringify([
        pontoIP(1, [-25.435, -49.275], 'C-1'),
        pontoIP(2, [-25.436, -49.276], 'C-1'),
      ]),
    });
    projeto = criado._id;
    pontos = criado.pontosIP;
    const tecnicoSession = await createSession(ctx.app, ctx.db, {
      roles: ['tecnico'],
      cliente,
      zonas: [zonaId(criado, 'Zona Centro')],
    });
    tecnico = tecnicoSession.cookie;
    tecnicoId = tecnicoSession.user.id;
    const session = (options: Parameters<typeof createCookie>[2]) => createCookie(ctx.app, ctx.db, options);
    supervisor = await session({ roles: ['supervisor'], cliente });
    outroSupervisor = await session({
      roles: ['supervisor'],
      cliente: await createCliente(ctx.app, admin, 'Outra'),
    });
    interpretador = await session({ roles: ['interpretador'] });
    externo = await session({ roles: ['externo'] });
    interpres = (
      await createProjeto(ctx.app, admin, {
        nome: 'Feed Interpres',
        cliente,
        fluxos: ['hc'],
        disponivelInterpres: 'true',
      })
    )._id;
  });
  afterAll(async () => ctx?.close());

  it('starts empty: the preloaded points are not field records yet', async () => {
    expect(pontos).toHaveLength(2);
    const page = await pagina(admin);
    expect(page).toEqual({ alteracoes: [], proximo: cursorOf('0'), fim: true });
  });

  it('gives each record once per change, in order, whatever the page size', async () => {
    const { cursor: inicio } = await lerTudo();

    // A unit uploaded, then the same upload again (its response lost): one change.
    const unidade = await enviar({ numero: '12' });
    expect(unidade.response.statusCode, unidade.response.body).toBe(201);
    const replay = await enviar({ id: unidade.id, numero: '12' });
    expect(replay.response.statusCode, replay.response.body).toBe(200);

    // A preloaded point collected.
    const ponto = pontos[0];
    if (!ponto) throw new Error('no point');
    const coleta = await uploadRecord(
      ctx.app,
      'ip',
      {
        id: ponto._id,
        coletaId: crypto.randomUUID(),
        projeto,
        coordenadas: JSON.stringify(ponto.coordenadas),
        dataHora: String(Date.UTC(2026, 10, 24, 11)),
        possuiIP: 'true',
        possuiUsoMutuo: 'false',
      },
      { fotos: [fakeJpeg(), fakeJpeg(1500)], cookie: tecnico },
    );
    expect(coleta.statusCode, coleta.body).toBe(200);

    // Rejected, corrected (revision 2, sent twice), approved.
    const reprovada = await post(`/api/revisao/${unidade.id}`, supervisor, {
      estado: 'reprovado',
      comentario: 'Confira o número.',
      versao: 1,
    });
    expect(reprovada.statusCode, reprovada.body).toBe(200);
    const correcao = () =>
      enviar({ id: unidade.id, numero: '21', versao: '2', coordenadas: JSON.stringify(CENTRO) }, [
        fakeJpeg(2500),
      ]);
    expect((await correcao()).response.statusCode).toBe(200);
    expect((await correcao()).response.statusCode).toBe(200);
    const aprovada = await post(`/api/revisao/${unidade.id}`, supervisor, { estado: 'aprovado', versao: 2 });
    expect(aprovada.statusCode, aprovada.body).toBe(200);

    const esperado = [
      [unidade.id, 'registro criado', 1],
      [ponto._id, 'registro criado', 1],
      [unidade.id, 'revisão', 1],
      [unidade.id, 'registro alterado', 2],
      [unidade.id, 'revisão', 2],
    ];
    for (const limite of [1, 2, 1000]) {
      const { lidas, cursor } = await lerTudo(inicio, limite);
      expect(
        lidas.map((e) => [e.registro._id, e.evento, e.versao]),
        `pages of ${limite}`,
      ).toEqual(esperado);
      // Each entry's cursor goes on from it; the last is where the feed stands.
      const ids = lidas.map((e) => BigInt(idOfCursor(e.cursor) ?? '-1'));
      expect(ids.every((id, i) => i === 0 || id > (ids[i - 1] ?? 0n))).toBe(true);
      expect(cursor).toBe(lidas.at(-1)?.cursor);
    }

    // The record as GET /api/registro/:id answers it (as it is now), with its flow and photos.
    const { lidas } = await lerTudo(inicio);
    const agora = (await get(`/api/registro/${unidade.id}`, admin)).json();
    expect(lidas[0]).toMatchObject({ fluxo: 'hc', registro: agora });
    expect(lidas[0]?.registro).toMatchObject({
      _id: unidade.id,
      numero: '21',
      versao: 2,
      revisao: 'aprovado',
    });
    expect(lidas[1]).toMatchObject({
      fluxo: 'ip',
      registro: {
        _id: ponto._id,
        idConcessionaria: 'IP-1',
        coletado: true,
        conflito: false,
        fotos: [`/api/fotos/${ponto._id}/0`, `/api/fotos/${ponto._id}/1`],
      },
    });
    expect(typeof lidas[0]?.em).toBe('number');

    // Read from where it stood: nothing new, the same cursor back.
    const depois = await pagina(admin, { desde: lidas.at(-1)?.cursor ?? '' });
    expect(depois).toEqual({ alteracoes: [], proximo: lidas.at(-1)?.cursor, fim: true });
  });

  it("writes nothing for what is not the record's change, and one 'revisão' per record approved in bulk", async () => {
    const [a, b] = [await enviar(), await enviar()];
    const { cursor: inicio } = await lerTudo();
    // A new fuso (the UTM columns), the zones recomputed, photo slots: none is a change of a record's data.
    await ctx.db.query('UPDATE projetos SET fuso = 23 WHERE id = $1', [projeto]);
    await ctx.db.query('UPDATE registros SET zona = NULL WHERE projeto = $1', [projeto]);
    await ctx.db.query('DELETE FROM fotos WHERE registro = $1', [a.id]);
    // A write of the same values (a statement that sets without changing).
    await ctx.db.query('UPDATE registros SET dados = dados, revisao = revisao WHERE id = $1', [b.id]);
    expect((await lerTudo(inicio)).lidas).toEqual([]);

    const lote = await post('/api/revisao/aprovar', supervisor, { projeto, estado: 'pendente' });
    expect(lote.statusCode, lote.body).toBe(200);
    const { aprovados } = lote.json<{ aprovados: number }>();
    const { lidas } = await lerTudo(inicio);
    expect(lidas).toHaveLength(aprovados);
    expect(new Set(lidas.map((e) => e.registro._id)).size).toBe(aprovados);
    expect(lidas.every((e) => e.evento === 'revisão' && e.registro.revisao === 'aprovado')).toBe(true);
    expect(lidas.map((e) => e.registro._id)).toEqual(expect.arrayContaining([a.id, b.id]));
  });

  it('keeps every record, once, while 50 uploads arrive and a reader follows the cursor', async () => {
    const { cursor: inicio } = await lerTudo();
    const lidas: Entrada[] = [];
    let cursor = inicio;
    let enviando = true;
    const leitor = (async () => {
      let voltas = 0;
      // Reads on while uploads run, then once more after the last one answered.
      for (let ultima = false; !ultima; voltas += 1) {
        ultima = !enviando;
        const page = await pagina(supervisor, { desde: cursor, limite: 7 });
        lidas.push(...page.alteracoes);
        cursor = page.proximo;
        if (!page.fim) ultima = false;
        // as a client polls: a moment between pages, so PGlite's one connection also serves the uploads
        else await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return voltas;
    })();
    const ids = Array.from({ length: 50 }, () => crypto.randomUUID());
    const respostas = await Promise.all(ids.map((id) => enviar({ id })));
    enviando = false;
    for (const { response } of respostas) expect(response.statusCode, response.body).toBe(201);
    const voltas = await leitor;
    expect(voltas).toBeGreaterThan(1);
    // What another test's transaction may have held back when the reader stopped.
    lidas.push(...(await lerTudo(cursor, 7, supervisor)).lidas);
    expect(lidas.map((e) => e.registro._id).sort()).toEqual([...ids].sort());
    expect(lidas.every((e) => e.evento === 'registro criado')).toBe(true);
  });

  it.runIf(onPostgres)(
    'never passes a change whose transaction is still open: it appears once that one commits',
    async () => {
      const { cursor: inicio } = await lerTudo();
      const [{ schema } = { schema: '' }] = await ctx.db.query<{ schema: string }>(
        'SELECT current_schema() AS schema',
      );
      const client = new pg.Client({
        connectionString: process.env.DATABASE_URL,
        options: `-c search_path=${schema},public`,
      });
      await client.connect();
      try {
        // An upload's transaction, held open after writing its record (a slow request, a lock wait).
        const lento = crypto.randomUUID();
        await client.query('BEGIN');
        await client.query(
          `INSERT INTO registros (id, fluxo, projeto, tecnico, lat, lng, geom, data_hora, sincronizado_em, coletado,
             adicionado_app, dados)
           VALUES ($1, 'hc', $2, $3, $4, $5, ST_SetSRID(ST_MakePoint($5, $4), 4326), now(), now(), true, true, $6)`,
          [lento, projeto, tecnicoId, CENTRO.lat, CENTRO.lng, unidadeForm(lento, projeto)],
        );
        // A later upload commits first and the feed is read: neither is served yet, the cursor stays.
        const rapido = await enviar();
        expect(rapido.response.statusCode, rapido.response.body).toBe(201);
        const [{ n } = { n: 0 }] = await ctx.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM alteracoes WHERE registro = $1',
          [rapido.id],
        );
        expect(n).toBe(1);
        const enquanto = await pagina(admin, { desde: inicio });
        expect(enquanto).toEqual({ alteracoes: [], proximo: inicio, fim: true });

        await client.query('COMMIT');
        const { lidas } = await lerTudo(inicio);
        expect(lidas.map((e) => e.registro._id)).toEqual([lento, rapido.id]);
      } finally {
        await client.query('ROLLBACK').catch(() => undefined);
        await client.end();
      }
    },
  );

  it.runIf(onPostgres)(
    'is not held back by a transaction open in another database of the cluster',
    async () => {
      const url = process.env.DATABASE_URL ?? '';
      const nome = `novus_feed_${crypto.randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${nome}`);
      const outro = new URL(url);
      outro.pathname = `/${nome}`;
      const alheio = new pg.Client({ connectionString: outro.toString() });
      await alheio.connect();
      try {
        // Another database's long write (an import, a bench's seeding): it cannot write a change here.
        await alheio.query('BEGIN');
        await alheio.query('SELECT pg_current_xact_id()');
        const { cursor: inicio } = await lerTudo();
        const depois = await enviar();
        expect(depois.response.statusCode, depois.response.body).toBe(201);
        const { lidas } = await lerTudo(inicio);
        expect(lidas.map((e) => e.registro._id)).toEqual([depois.id]);
      } finally {
        await alheio.query('ROLLBACK').catch(() => undefined);
        await alheio.end();
        await admin.query(`DROP DATABASE IF EXISTS ${nome}`);
        await admin.end();
      }
    },
  );

  describe('access', () => {
    const status = async (cookie: string, de: string) =>
      (await get(`/api/alteracoes?projeto=${de}`, cookie)).statusCode;

    it('the administrador and the client’s supervisor read the project; another client’s supervisor does not', async () => {
      expect(await status(admin, projeto)).toBe(200);
      expect(await status(supervisor, projeto)).toBe(200);
      expect(await status(outroSupervisor, projeto)).toBe(403);
      expect(await status(outroSupervisor, interpres)).toBe(403);
    });

    it('the interpretador and the externo read Interpres projects only; the técnico none', async () => {
      for (const cookie of [interpretador, externo]) {
        expect(await status(cookie, interpres)).toBe(200);
        expect(await status(cookie, projeto)).toBe(403);
      }
      const refused = await get(`/api/alteracoes?projeto=${projeto}`, tecnico);
      expect(refused.statusCode).toBe(403);
      expect(
        (await ctx.app.inject({ method: 'GET', url: `/api/alteracoes?projeto=${projeto}` })).statusCode,
      ).toBe(401);
    });

    it('answers an Interpres project’s changes to the externo', async () => {
      const id = crypto.randomUUID();
      const response = await uploadRecord(ctx.app, 'unidade', unidadeForm(id, interpres), {
        fotos: [],
        cookie: admin,
      });
      expect(response.statusCode, response.body).toBe(201);
      const page = await pagina(externo, { de: interpres });
      expect(page.alteracoes.map((e) => [e.registro._id, e.evento])).toEqual([[id, 'registro criado']]);
      // The other project's changes are not in this one's feed.
      expect((await pagina(admin)).alteracoes.some((e) => e.registro._id === id)).toBe(false);
    });

    it('404 for a project that does not exist', async () => {
      const response = await get(`/api/alteracoes?projeto=${crypto.randomUUID()}`, admin);
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('Projeto não encontrado.');
    });
  });

  describe('bad queries', () => {
    const mensagem = async (query: string) => {
      const response = await get(`/api/alteracoes?${query}`, admin);
      expect(response.statusCode, `${query}: ${response.body}`).toBe(400);
      return response.json().message as string;
    };

    it('asks for the project', async () => {
      expect(await mensagem('')).toBe(ALTERACOES_TEXTS.projeto);
      expect(await mensagem('projeto=abc')).toBe(ALTERACOES_TEXTS.projetoInvalido);
    });

    it('refuses a cursor it did not make, in Portuguese', async () => {
      const b64 = (text: string) => Buffer.from(text).toString('base64url');
      for (const desde of [
        'xyz!!',
        'a b',
        b64('abc'),
        b64('-1'),
        b64('01'),
        b64('1.5'),
        b64('9'.repeat(20)),
        'A'.repeat(40),
      ]) {
        expect(await mensagem(`projeto=${projeto}&desde=${encodeURIComponent(desde)}`), desde).toBe(
          ALTERACOES_TEXTS.cursor,
        );
      }
      expect(await mensagem(`projeto=${projeto}&desde=a&desde=b`)).toBe(ALTERACOES_TEXTS.cursor);
      // The largest id is still a cursor (past every change: nothing to read).
      const page = await pagina(admin, { desde: b64('9223372036854775807') });
      expect(page).toMatchObject({ alteracoes: [], fim: true });
    });

    it('takes a limite of 1 to 5000', async () => {
      for (const limite of ['0', '5001', '-1', '1.5', 'abc', '1e9']) {
        expect(await mensagem(`projeto=${projeto}&limite=${limite}`), limite).toBe(ALTERACOES_TEXTS.limite);
      }
      expect((await pagina(admin, { limite: 5000 })).fim).toBe(true);
    });

    it('never answers 500', async () => {
      const queries = [
        'projeto=',
        `projeto=${projeto}&projeto=${projeto}`,
        `projeto=${projeto}&desde=`,
        `projeto=${projeto}&desde=%00`,
        `projeto=${projeto}&desde=${'A'.repeat(5000)}`,
        `projeto=${projeto}&limite=`,
        `projeto=${projeto}&limite=1&limite=2`,
        `projeto=${projeto.toUpperCase()}`,
        `projeto[a]=1`,
        `projeto=${projeto}&desde[x]=1`,
      ];
      for (const query of queries) {
        const response = await get(`/api/alteracoes?${query}`, admin);
        expect(response.statusCode, `${query}: ${response.body}`).toBeLessThan(500);
      }
    });
  });
});
