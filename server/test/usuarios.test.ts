import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureFirstAdmin } from '../src/bootstrap.ts';
import { createTestContext, createUser, loginCookie, type TestContext } from './support/test-app.ts';

describe('first administrador and user creation', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => ctx.close());

  it('creates the first administrador once, with a generated password when none is configured', async () => {
    const first = await ensureFirstAdmin(ctx.db, 'admin', undefined);
    expect(first?.login).toBe('admin');
    expect(first?.generatedPassword?.length).toBeGreaterThanOrEqual(12);
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { cookie: await loginCookie(ctx.app, 'admin', first?.generatedPassword) },
    });
    expect(me.json().roles).toEqual(['administrador']);
    expect(await ensureFirstAdmin(ctx.db, 'admin2', 'outra-senha-1')).toBeUndefined();
  });

  it('lets an administrador create a user who can then log in, and refuses broken rules with a list of msg', async () => {
    const admin = await createUser(ctx.db, { roles: ['administrador'] });
    const cookie = await loginCookie(ctx.app, admin.login);
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/user',
      headers: { cookie },
      payload: {
        login: 'tecnico.novo',
        firstName: 'Rita',
        lastName: 'Lima',
        password: 'campo-1234',
        passwordConfirmation: 'campo-1234',
        roles: ['tecnico'],
      },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).not.toHaveProperty('password_hash');
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: 'tecnico.novo', password: 'campo-1234' },
    });
    expect(login.json().nome).toBe('Rita Lima');

    const duplicate = await ctx.app.inject({
      method: 'POST',
      url: '/api/user',
      headers: { cookie },
      payload: {
        login: 'TECNICO.NOVO',
        password: 'campo-1234',
        passwordConfirmation: 'campo-1234',
        roles: ['tecnico'],
      },
    });
    expect(duplicate.statusCode).toBe(409);

    const broken = await ctx.app.inject({
      method: 'POST',
      url: '/api/user',
      headers: { cookie },
      payload: { login: '', password: '123', passwordConfirmation: '456', roles: [] },
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().errors.map((e: { msg: string }) => e.msg)).toEqual([
      'O login é obrigatório.',
      'A senha deve ter pelo menos 8 caracteres.',
      'Escolha pelo menos um perfil.',
      'A senha e a confirmação não conferem.',
    ]);

    const tecnicoCookie = await loginCookie(ctx.app, 'tecnico.novo', 'campo-1234');
    const forbidden = await ctx.app.inject({
      method: 'POST',
      url: '/api/user',
      headers: { cookie: tecnicoCookie },
      payload: {
        login: 'x',
        password: 'campo-1234',
        passwordConfirmation: 'campo-1234',
        roles: ['administrador'],
      },
    });
    expect(forbidden.statusCode).toBe(403);
  });
});
