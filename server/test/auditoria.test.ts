import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOW_TIE } from './support/fixtures.ts';
import {
  createCookie,
  createSession,
  createTestContext,
  FORM,
  formBody,
  sample,
  type TestContext,
} from './support/test-app.ts';

interface Entrada {
  _id: string;
  em: string;
  usuario: { _id: string | null; nome: string };
  entidade: string;
  entidadeId: string;
  acao: string;
  antes: Record<string, unknown> | null;
  depois: Record<string, unknown> | null;
}

describe('audit log', () => {
  let ctx: TestContext;
  let admin: string;
  let adminId: string;
  let outroAdmin: string;
  let outroAdminId: string;
  let supervisor: string;
  let tecnico: string;

  const send = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie?: string, payload?: object) =>
    ctx.app.inject({
      method,
      url,
      headers: cookie ? { cookie } : {},
      ...(payload === undefined ? {} : { payload }),
    });
  const sendForm = (method: 'POST' | 'PUT', url: string, fields: Record<string, string | string[]>) =>
    ctx.app.inject({ method, url, headers: { ...FORM, cookie: admin }, payload: formBody(fields) });

  const count = async () =>
    (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM auditoria'))[0]?.n ?? -1;

  /** The log as the administrador reads it, newest first. */
  async function log(query = '', cookie = admin): Promise<Entrada[]> {
    const response = await send('GET', `/api/auditoria?tamanho=200${query}`, cookie);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().entradas;
  }
  /** The entries about one object, oldest first. */
  const about = async (id: string) => (await log()).filter((e) => e.entidadeId === id).reverse();

  beforeAll(async () => {
    ctx = await createTestContext();
    const ana = await createSession(ctx.app, ctx.db, { roles: ['administrador'], firstName: 'Ana' });
    adminId = ana.user.id;
    admin = ana.cookie;
    const bruno = await createSession(ctx.app, ctx.db, { roles: ['administrador'], firstName: 'Bruno' });
    outroAdminId = bruno.user.id;
    outroAdmin = bruno.cookie;
    supervisor = await createCookie(ctx.app, ctx.db, { roles: ['supervisor'] });
    tecnico = await createCookie(ctx.app, ctx.db, { roles: ['tecnico'] });
  });
  afterAll(async () => ctx.close());

  it('records who created, renamed and deleted a client, with the values before and after', async () => {
    const id = (await send('POST', '/api/cliente', admin, { nome: 'Copel' })).json()._id;
    expect((await send('PUT', `/api/cliente/${id}`, admin, { nome: 'Copel DIS' })).statusCode).toBe(200);
    expect((await send('DELETE', `/api/cliente/${id}`, admin)).statusCode).toBe(200);

    const entries = await about(id);
    expect(entries.map((e) => [e.entidade, e.acao, e.antes, e.depois])).toEqual([
      ['cliente', 'criar', null, { nome: 'Copel' }],
      ['cliente', 'alterar', { nome: 'Copel' }, { nome: 'Copel DIS' }],
      ['cliente', 'excluir', { nome: 'Copel DIS' }, null],
    ]);
    for (const entry of entries) {
      expect(entry.usuario).toEqual({ _id: adminId, nome: 'Ana de Tal' });
      expect(Date.now() - Date.parse(entry.em)).toBeLessThan(60_000);
    }
  });

  it('records a project, its zone KML and its point file as imports, and nothing for the same file again', async () => {
    const cliente = (await send('POST', '/api/cliente', admin, { nome: 'Light' })).json()._id;
    const form = {
      nome: 'Curitiba Centro',
      cliente,
      fuso: '22',
      fluxos: ['hc', 'ip'],
      disponivelInterpres: 'false',
      kml: sample('zoneamento-curitiba.kml'),
      arquivoIP: sample('pontos-ip.txt'),
    };
    const created = await sendForm('POST', '/api/projeto', form);
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json()._id;

    const [criar, zonas, pontos, ...rest] = await about(id);
    expect(rest).toEqual([]);
    expect(criar).toMatchObject({
      entidade: 'projeto',
      acao: 'criar',
      antes: null,
      depois: {
        nome: 'Curitiba Centro',
        cliente: 'Light',
        fluxos: ['hc', 'ip'],
        fuso: 22,
        disponivelInterpres: false,
        limiteDownload: null,
        retencaoCopiasDias: 7,
      },
    });
    expect(zonas).toMatchObject({ entidade: 'zonas', acao: 'importar', antes: null });
    expect(zonas?.depois?.zonas).toEqual(['Zona Batel', 'Zona Centro', 'Zona Rebouças']);
    expect(zonas?.depois?.projeto).toBe('Curitiba Centro');
    expect(zonas?.depois?.hectares).toBeGreaterThan(0);
    expect(pontos).toMatchObject({
      entidade: 'pontos:ip',
      acao: 'importar',
      antes: null,
      depois: { projeto: 'Curitiba Centro', pontos: 4 },
    });

    // The same files again: only the project's own entry; then a shorter point file: its import.
    expect((await sendForm('PUT', `/api/projeto/${id}`, { ...form, nome: 'Curitiba Sul' })).statusCode).toBe(
      200,
    );
    const twoPoints = sample('pontos-ip.txt').split('\n').slice(0, 2).join('\n');
    expect(
      (await sendForm('PUT', `/api/projeto/${id}`, { ...form, nome: 'Curitiba Sul', arquivoIP: twoPoints }))
        .statusCode,
    ).toBe(200);
    const later = (await about(id)).slice(3);
    expect(later.map((e) => [e.entidade, e.acao, e.antes, e.depois])).toEqual([
      ['projeto', 'alterar', criar?.depois, { ...criar?.depois, nome: 'Curitiba Sul' }],
      [
        'projeto',
        'alterar',
        { ...criar?.depois, nome: 'Curitiba Sul' },
        { ...criar?.depois, nome: 'Curitiba Sul' },
      ],
      [
        'pontos:ip',
        'importar',
        { projeto: 'Curitiba Sul', pontos: 4 },
        { projeto: 'Curitiba Sul', pontos: 2 },
      ],
    ]);

    expect((await send('DELETE', `/api/projeto/${id}`, admin)).statusCode).toBe(200);
    const excluir = (await about(id)).at(-1);
    expect(excluir).toMatchObject({ entidade: 'projeto', acao: 'excluir', depois: null });
    expect(excluir?.antes).toMatchObject({ nome: 'Curitiba Sul', cliente: 'Light' });
  });

  it('records users by name, roles, client and zones, never a password or its hash', async () => {
    const cliente = (await send('POST', '/api/cliente', admin, { nome: 'Celesc' })).json()._id;
    const created = await send('POST', '/api/user', admin, {
      login: 'joana.campo',
      firstName: 'Joana',
      lastName: 'Campo',
      password: 'segredo-1234',
      passwordConfirmation: 'segredo-1234',
      roles: ['supervisor'],
      cliente,
      zonas: [],
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json()._id;
    const update = {
      id,
      firstName: 'Joana',
      lastName: 'Campos',
      roles: ['supervisor', 'interpretador'],
      cliente,
      zonas: [],
    };
    expect((await send('PUT', `/api/user/${id}`, admin, update)).statusCode).toBe(200);
    const withPassword = { ...update, password: 'outra-senha-99', passwordConfirmation: 'outra-senha-99' };
    expect((await send('PUT', `/api/user/${id}`, admin, withPassword)).statusCode).toBe(200);
    expect((await send('DELETE', `/api/user/${id}`, admin)).statusCode).toBe(200);

    const entries = await about(id);
    const joana = {
      login: 'joana.campo',
      firstName: 'Joana',
      lastName: 'Campo',
      roles: ['supervisor'],
      cliente: 'Celesc',
      zonas: [],
    };
    const campos = { ...joana, lastName: 'Campos', roles: ['supervisor', 'interpretador'] };
    expect(entries.map((e) => [e.entidade, e.acao, e.antes, e.depois])).toEqual([
      ['usuario', 'criar', null, joana],
      ['usuario', 'alterar', joana, campos],
      ['usuario', 'alterar', campos, { ...campos, senhaAlterada: true }],
      ['usuario', 'excluir', campos, null],
    ]);
    const stored = await ctx.db.query<{ row: string }>(
      'SELECT row_to_json(a)::text AS row FROM auditoria a WHERE entidade_id = $1',
      [id],
    );
    for (const { row } of stored) {
      expect(row).not.toMatch(/segredo-1234|outra-senha-99|password|\$argon2|\$2[aby]\$/);
    }
  });

  it('keeps who wrote an entry after that administrador is deleted', async () => {
    const { user: temp, cookie } = await createSession(ctx.app, ctx.db, {
      roles: ['administrador'],
      firstName: 'Temporário',
    });
    const cliente = (await send('POST', '/api/cliente', cookie, { nome: 'Efêmera' })).json()._id;
    expect((await send('DELETE', `/api/user/${temp.id}`, admin)).statusCode).toBe(200);
    const [entry] = await about(cliente);
    expect(entry?.usuario).toEqual({ _id: null, nome: 'Temporário de Tal' });
  });

  it('records nothing for a refused or failed write', async () => {
    const cliente = (await send('POST', '/api/cliente', admin, { nome: 'Equatorial' })).json()._id;
    const projeto = await sendForm('POST', '/api/projeto', {
      nome: 'Belém',
      cliente,
      fuso: '22',
      fluxos: ['hc'],
      disponivelInterpres: 'false',
    });
    expect(projeto.statusCode).toBe(201);
    const projetoId = projeto.json()._id;
    const before = await count();

    const refused = [
      [await send('POST', '/api/cliente', tecnico, { nome: 'Intrusa' }), 403],
      [await send('PUT', `/api/cliente/${cliente}`, supervisor, { nome: 'Intrusa' }), 403],
      [await send('DELETE', `/api/cliente/${cliente}`, undefined), 401],
      [await send('POST', '/api/cliente', admin, { nome: '' }), 400],
      [await send('POST', '/api/cliente', admin, { nome: 'EQUATORIAL' }), 409],
      // in use by the project: the delete's transaction rolls back after reading the client
      [await send('DELETE', `/api/cliente/${cliente}`, admin), 409],
      [await send('DELETE', `/api/user/${adminId}`, admin), 409],
      [await send('POST', '/api/user', admin, { login: 'x', roles: ['tecnico'] }), 400],
      // the project row is updated before PostGIS refuses the zone: the whole save rolls back
      [
        await sendForm('PUT', `/api/projeto/${projetoId}`, {
          nome: 'Belém 2',
          cliente,
          fuso: '22',
          fluxos: ['hc'],
          disponivelInterpres: 'false',
          zonas: JSON.stringify([BOW_TIE]),
        }),
        400,
      ],
      [await sendForm('POST', '/api/projeto', { nome: 'Sem cliente', fluxos: ['hc'] }), 400],
    ] as const;
    for (const [response, status] of refused) {
      expect(response.statusCode, response.body).toBe(status);
    }
    expect(await count()).toBe(before);
    expect((await send('GET', `/api/projeto/${projetoId}`, admin)).json().nome).toBe('Belém');
  });

  it('lets only the administrador read the log', async () => {
    expect((await send('GET', '/api/auditoria', supervisor)).statusCode).toBe(403);
    expect((await send('GET', '/api/auditoria', tecnico)).statusCode).toBe(403);
    const none = await send('GET', '/api/auditoria');
    expect(none.statusCode).toBe(401);
    expect(none.json().message).toBeTruthy();
    const forbidden = await send('GET', '/api/auditoria', supervisor);
    expect(forbidden.json()).toEqual({ message: 'Usuario nao tem permissao para esse recurso' });
  });

  it('filters by user and period, newest first, a page at a time', async () => {
    const mine = (await send('POST', '/api/cliente', admin, { nome: 'Da Ana' })).json()._id;
    const theirs = (await send('POST', '/api/cliente', outroAdmin, { nome: 'Do Bruno' })).json()._id;
    const old = (await send('POST', '/api/cliente', outroAdmin, { nome: 'Antiga' })).json()._id;
    // 23:30 on 9 January in Brasília is already 10 January in UTC: the days are local (FUSO_HORARIO)
    await ctx.db.query("UPDATE auditoria SET em = '2026-01-10T02:30:00Z' WHERE entidade_id = $1", [old]);

    const bruno = await log(`&usuario=${outroAdminId}`);
    expect(bruno.map((e) => e.entidadeId)).toEqual([theirs, old]);
    const ana = await log(`&usuario=${adminId}`);
    expect(ana.map((e) => e.entidadeId)).toContain(mine);
    expect(ana.every((e) => e.usuario._id === adminId)).toBe(true);

    expect((await log('&inicio=2026-01-09&fim=2026-01-09')).map((e) => e.entidadeId)).toEqual([old]);
    expect(await log('&inicio=2026-01-10&fim=2026-01-10')).toEqual([]);
    expect((await log('&fim=2026-01-09')).map((e) => e.entidadeId)).toEqual([old]);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
    const recent = await log(`&inicio=${today}&fim=${today}`);
    expect(recent.map((e) => e.entidadeId)).toContain(mine);
    expect(recent.map((e) => e.entidadeId)).not.toContain(old);
    expect((await log(`&usuario=${outroAdminId}&inicio=${today}`)).map((e) => e.entidadeId)).toEqual([
      theirs,
    ]);
    // unset filters (empty select and date inputs) mean no filter
    expect((await log('&usuario=&inicio=&fim=')).length).toBe(await count());

    const all = await log();
    const times = all.map((e) => Date.parse(e.em));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(all[0]?.entidadeId).toBe(theirs);
    const page = await send('GET', '/api/auditoria?tamanho=2&pagina=1', admin);
    expect(page.json()).toMatchObject({ total: all.length, pagina: 1, tamanho: 2 });
    expect(page.json().entradas).toEqual(all.slice(2, 4));
  });

  it('refuses bad filters with a Portuguese message', async () => {
    const cases: [string, RegExp][] = [
      ['usuario=abc', /Usuário inválido/],
      ['inicio=ontem', /Data inicial inválida/],
      ['fim=2026-02-30', /Data final inválida/],
      ['inicio=2026-02-01&fim=2026-01-31', /A data inicial deve ser anterior ou igual à data final/],
      ['tamanho=0', /Tamanho de página inválido/],
      ['tamanho=5000', /O tamanho de página máximo é 200/],
      ['pagina=-1', /Página inválida/],
      ['pagina=1e300', /Página inválida/],
    ];
    for (const [query, message] of cases) {
      const response = await send('GET', `/api/auditoria?${query}`, admin);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message).toMatch(message);
    }
  });
});
