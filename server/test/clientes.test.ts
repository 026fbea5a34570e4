import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createUser, loginCookie, type TestContext } from './support/test-app.ts';

describe('/api/cliente', () => {
  let ctx: TestContext;
  const cookies: Record<'administrador' | 'supervisor' | 'tecnico', string> = {
    administrador: '',
    supervisor: '',
    tecnico: '',
  };

  const send = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie?: string, payload?: unknown) =>
    ctx.app.inject({
      method,
      url,
      headers: cookie ? { cookie } : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  const count = async () =>
    (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM clientes'))[0]?.n ?? -1;

  beforeAll(async () => {
    ctx = await createTestContext();
    for (const role of ['administrador', 'supervisor', 'tecnico'] as const) {
      const user = await createUser(ctx.db, { roles: [role] });
      cookies[role] = await loginCookie(ctx.app, user.login);
    }
  });
  afterAll(async () => ctx.close());

  it('lets the administrador create, read, rename and delete a client', async () => {
    const created = await send('POST', '/api/cliente', cookies.administrador, { nome: '  Copel  ' });
    expect(created.statusCode).toBe(201);
    const { _id, nome } = created.json();
    expect(nome).toBe('Copel');

    expect((await send('GET', `/api/cliente/${_id}`, cookies.administrador)).json()).toEqual({
      _id,
      nome: 'Copel',
    });
    expect((await send('GET', '/api/cliente', cookies.administrador)).json()).toContainEqual({
      _id,
      nome: 'Copel',
    });

    const renamed = await send('PUT', `/api/cliente/${_id}`, cookies.administrador, {
      id: _id,
      nome: 'Copel DIS',
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toEqual({ _id, nome: 'Copel DIS' });

    const deleted = await send('DELETE', `/api/cliente/${_id}`, cookies.administrador);
    expect(deleted.statusCode).toBe(200);
    expect((await send('GET', `/api/cliente/${_id}`, cookies.administrador)).statusCode).toBe(404);
  });

  it('accepts the form-encoded body the spec describes', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/cliente',
      headers: { cookie: cookies.administrador, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'nome=Energisa%20MT',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().nome).toBe('Energisa MT');
  });

  it('lets a supervisor read only their own client, never write; a tecnico nothing; nobody without a token', async () => {
    const own = (await send('POST', '/api/cliente', cookies.administrador, { nome: 'Light' })).json();
    const other = (await send('POST', '/api/cliente', cookies.administrador, { nome: 'Sulgás' })).json();
    const supervisor = await createUser(ctx.db, { roles: ['supervisor'], cliente: own._id });
    const supervisorCookie = await loginCookie(ctx.app, supervisor.login);
    const before = await count();

    expect((await send('GET', '/api/cliente', supervisorCookie)).json()).toEqual([own]);
    expect((await send('GET', `/api/cliente/${own._id}`, supervisorCookie)).statusCode).toBe(200);
    expect((await send('GET', `/api/cliente/${other._id}`, supervisorCookie)).statusCode).toBe(403);
    // A supervisor without a client sees none.
    expect((await send('GET', '/api/cliente', cookies.supervisor)).json()).toEqual([]);
    for (const [cookie, status] of [
      [supervisorCookie, 403],
      [cookies.tecnico, 403],
      [undefined, 401],
    ] as const) {
      const writes = [
        await send('POST', '/api/cliente', cookie, { nome: 'Intruso' }),
        await send('PUT', `/api/cliente/${own._id}`, cookie, { nome: 'Intruso' }),
        await send('DELETE', `/api/cliente/${other._id}`, cookie),
      ];
      for (const response of writes) {
        expect(response.statusCode).toBe(status);
        expect(response.json().message).toBeTruthy();
      }
    }
    for (const [cookie, status] of [
      [cookies.tecnico, 403],
      [undefined, 401],
    ] as const) {
      expect((await send('GET', '/api/cliente', cookie)).statusCode).toBe(status);
      expect((await send('GET', `/api/cliente/${own._id}`, cookie)).statusCode).toBe(status);
    }
    const forbidden = await send('GET', '/api/cliente', cookies.tecnico);
    expect(forbidden.json()).toEqual({ message: 'Usuario nao tem permissao para esse recurso' });
    expect(await count()).toBe(before);
    expect((await send('GET', `/api/cliente/${own._id}`, cookies.administrador)).json().nome).toBe('Light');
  });

  it('refuses empty, duplicate and oversized names with a Portuguese message, storing nothing', async () => {
    await send('POST', '/api/cliente', cookies.administrador, { nome: 'Equatorial' });
    const before = await count();
    const cases: [unknown, number, string][] = [
      [{ nome: '' }, 400, 'O nome do cliente é obrigatório.'],
      [{ nome: '    ' }, 400, 'O nome do cliente é obrigatório.'],
      [{}, 400, 'O nome do cliente é obrigatório.'],
      [{ nome: 42 }, 400, 'O nome do cliente é obrigatório.'],
      [{ nome: ['a', 'b'] }, 400, 'O nome do cliente é obrigatório.'],
      [{ nome: 'x'.repeat(201) }, 400, 'O nome do cliente deve ter no máximo 200 caracteres.'],
      [{ nome: 'EQUATORIAL' }, 409, 'Já existe um cliente com esse nome.'],
      [{ nome: 'nul\u0000byte' }, 400, 'A requisição contém caracteres inválidos.'],
    ];
    for (const [payload, status, message] of cases) {
      const response = await send('POST', '/api/cliente', cookies.administrador, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.json().message).toBe(message);
      expect(response.json().errors).toEqual([{ msg: message }]);
    }
    expect(await count()).toBe(before);
  });

  it('refuses renaming to an existing name, and a body id that differs from the URL', async () => {
    const a = (await send('POST', '/api/cliente', cookies.administrador, { nome: 'Celesc' })).json();
    const b = (await send('POST', '/api/cliente', cookies.administrador, { nome: 'Coelba' })).json();
    const dup = await send('PUT', `/api/cliente/${b._id}`, cookies.administrador, { nome: 'celesc' });
    expect(dup.statusCode).toBe(409);
    const mismatch = await send('PUT', `/api/cliente/${b._id}`, cookies.administrador, {
      id: a._id,
      nome: 'X',
    });
    expect(mismatch.statusCode).toBe(400);
    expect((await send('GET', `/api/cliente/${b._id}`, cookies.administrador)).json().nome).toBe('Coelba');
  });

  it('answers 400 for a malformed id and 404 for an unknown one, never 500', async () => {
    const unknown = '0b9a7d3c-1111-4222-8333-944455556666';
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const malformed = await send(
        method,
        '/api/cliente/not-a-uuid',
        cookies.administrador,
        method === 'PUT' ? { nome: 'X' } : undefined,
      );
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().message).toBe('Identificador de cliente inválido.');
      const missing = await send(
        method,
        `/api/cliente/${unknown}`,
        cookies.administrador,
        method === 'PUT' ? { nome: 'Y' } : undefined,
      );
      expect(missing.statusCode).toBe(404);
      expect(missing.json().message).toBe('Cliente não encontrado.');
    }
    const sqlish = await send('GET', "/api/cliente/1'%20OR%20'1'='1", cookies.administrador);
    expect(sqlish.statusCode).toBe(400);
    // A %-escape the router cannot decode: Portuguese too, and the server goes on serving.
    for (const url of ['/api/cliente/%E0%A4%A', '/api/registro/%zz', '/api/unidade/%/kml']) {
      const broken = await send('GET', url, cookies.administrador);
      expect(broken.statusCode, url).toBe(400);
      expect(broken.json(), url).toEqual({ message: 'Endereço inválido.' });
    }
    expect((await send('GET', '/api/cliente', cookies.administrador)).statusCode).toBe(200);
  });

  it('answers 400 for malformed JSON, 415 for an unknown content type and 413 for a huge body', async () => {
    const before = await count();
    const malformed = await ctx.app.inject({
      method: 'POST',
      url: '/api/cliente',
      headers: { cookie: cookies.administrador, 'content-type': 'application/json' },
      payload: '{"nome": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBe('O corpo da requisição não é um JSON válido.');

    const xml = await ctx.app.inject({
      method: 'POST',
      url: '/api/cliente',
      headers: { cookie: cookies.administrador, 'content-type': 'application/xml' },
      payload: '<nome>X</nome>',
    });
    expect(xml.statusCode).toBe(415);
    expect(xml.json().message).toBe('Tipo de conteúdo não suportado.');

    const huge = await send('POST', '/api/cliente', cookies.administrador, {
      nome: 'x'.repeat(2 * 1024 * 1024),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().message).toBe('O conteúdo enviado excede o tamanho permitido.');
    expect(await count()).toBe(before);
    expect((await send('GET', '/api/cliente', cookies.administrador)).statusCode).toBe(200);
  });

  it('refuses to delete a client still used by a user or a project (409), keeping it', async () => {
    const usedByUser = (await send('POST', '/api/cliente', cookies.administrador, { nome: 'CPFL' })).json();
    await createUser(ctx.db, { roles: ['supervisor'], cliente: usedByUser._id });
    const usedByProject = (
      await send('POST', '/api/cliente', cookies.administrador, { nome: 'Enel' })
    ).json();
    await ctx.db.query('INSERT INTO projetos (nome, cliente) VALUES ($1, $2)', [
      'Enel Fortaleza',
      usedByProject._id,
    ]);

    for (const cliente of [usedByUser, usedByProject]) {
      const response = await send('DELETE', `/api/cliente/${cliente._id}`, cookies.administrador);
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toContain('Cliente em uso');
      expect((await send('GET', `/api/cliente/${cliente._id}`, cookies.administrador)).statusCode).toBe(200);
    }
  });
});
