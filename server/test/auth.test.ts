import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { LoginLimiter } from '../src/auth/login-limiter.ts';
import {
  createTestContext,
  createUser,
  loginCookie,
  PASSWORD,
  type TestContext,
} from './support/test-app.ts';

describe('auth', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext({
      limits: { maxPerLogin: 3, maxPerAddress: 50, windowMs: 60_000 },
      trustProxy: true,
    });
  });
  afterAll(async () => ctx.close());

  it('logs in with form fields and sets an HttpOnly, SameSite=Lax cookie whose JWT carries nome, roles and zonas', async () => {
    await createUser(ctx.db, { login: 'maria', roles: ['tecnico'], firstName: 'Maria' });
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `login=maria&password=${encodeURIComponent(PASSWORD)}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ nome: 'Maria de Tal', roles: ['tecnico'], zonas: [] });
    const cookie = response.cookies.find((c) => c.name === 'auth_token');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.secure).toBeFalsy();
    const claims = decodeJwt(cookie?.value ?? '');
    expect(claims).toMatchObject({ nome: 'Maria de Tal', roles: ['tecnico'], zonas: [] });
    expect(typeof claims.sub).toBe('string');
    // Technicians work offline for weeks: the session lasts 30 days.
    expect((claims.exp ?? 0) - Math.floor(Date.now() / 1000)).toBeGreaterThan(29 * 24 * 3600);
  });

  it('marks the cookie Secure when served over HTTPS', async () => {
    await createUser(ctx.db, { login: 'https-user', roles: ['tecnico'] });
    // Behind a TLS-terminating proxy (TRUST_PROXY=1) the forwarded protocol decides.
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: 'https-user', password: PASSWORD },
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.cookies.find((c) => c.name === 'auth_token')?.secure).toBe(true);
  });

  it('accepts JSON too and answers /api/auth/me with the claims', async () => {
    await createUser(ctx.db, { login: 'joao', roles: ['supervisor', 'tecnico'], firstName: 'João' });
    const cookie = await loginCookie(ctx.app, 'joao');
    const me = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ nome: 'João de Tal', roles: ['supervisor', 'tecnico'], zonas: [] });
  });

  it('answers 401 with a Portuguese message for a wrong password or an unknown login', async () => {
    await createUser(ctx.db, { login: 'ana', roles: ['tecnico'] });
    for (const payload of [
      { login: 'ana', password: 'errada-123' },
      { login: 'ninguem', password: 'qualquer-123' },
    ]) {
      const response = await ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: 'Login ou senha inválidos.' });
      expect(response.cookies).toHaveLength(0);
    }
  });

  it('answers 400 when a field is missing or of the wrong type', async () => {
    const cases = [{ login: 'ana' }, { password: 'x' }, {}, { login: 12, password: ['a'] }];
    for (const payload of cases) {
      const response = await ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/[a-zà-ú]/i);
      expect(Array.isArray(response.json().errors)).toBe(true);
    }
  });

  it('rate-limits repeated failures for one login with 429, even with the right password afterwards', async () => {
    await createUser(ctx.db, { login: 'alvo', roles: ['tecnico'] });
    for (let i = 0; i < 3; i += 1) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { login: 'alvo', password: `errada-${i}` },
      });
      expect(response.statusCode).toBe(401);
    }
    const blocked = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: 'alvo', password: PASSWORD },
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toContain('Muitas tentativas');
  });

  it('counts failures across two servers on one database: alternating between them does not escape the limit', async () => {
    await createUser(ctx.db, { login: 'alvo-dois', roles: ['tecnico'] });
    const outro = await buildApp({
      db: ctx.db,
      tokens: ctx.tokens,
      blobs: ctx.blobs,
      limiter: new LoginLimiter({ maxPerLogin: 3, maxPerAddress: 50, windowMs: 60_000 }),
    });
    try {
      const servers = [ctx.app, outro];
      const tentar = (index: number, password: string) =>
        (servers[index % 2] ?? ctx.app).inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { login: 'alvo-dois', password },
        });
      for (let i = 0; i < 3; i += 1) expect((await tentar(i, `errada-${i}`)).statusCode).toBe(401);
      for (let i = 0; i < 2; i += 1) expect((await tentar(i, PASSWORD)).statusCode).toBe(429);
    } finally {
      await outro.close();
    }
  });

  it('refuses a forged, expired or garbage token with 401', async () => {
    const { TokenService } = await import('../src/auth/tokens.ts');
    const forged = await new TokenService('another-secret-another-secret-xx', 30).sign('x', {
      nome: 'Hacker',
      roles: ['administrador'],
      zonas: [],
    });
    const expired = await new TokenService('test-secret-that-is-long-enough-for-hs256', -1).sign('x', {
      nome: 'Old',
      roles: ['administrador'],
      zonas: [],
    });
    for (const token of [forged.token, expired.token, 'garbage']) {
      const response = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: { cookie: `auth_token=${token}` },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json().message).toBeTruthy();
    }
  });

  it('clears the cookie on logout', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: '/api/auth/logout' });
    expect(response.statusCode).toBe(204);
    const cleared = response.cookies.find((c) => c.name === 'auth_token');
    expect(cleared?.value).toBe('');
  });

  it('ends the session on the server: the old cookie is refused after logout, another session goes on', async () => {
    await createUser(ctx.db, { login: 'logout-admin', roles: ['administrador'] });
    const [cookie, other] = [
      await loginCookie(ctx.app, 'logout-admin'),
      await loginCookie(ctx.app, 'logout-admin'),
    ];
    const me = (session: string) =>
      ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: session } });
    expect((await me(cookie)).statusCode).toBe(200);
    const logout = await ctx.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    expect(logout.statusCode).toBe(204);
    const after = await me(cookie);
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toBe('Sessão expirada ou inexistente. Faça login novamente.');
    expect((await me(other)).statusCode).toBe(200);
  });

  it('refuses a cross-site form post with 403 and accepts the same origin', async () => {
    await createUser(ctx.db, { login: 'csrf-admin', roles: ['administrador'] });
    const cookie = await loginCookie(ctx.app, 'csrf-admin');
    const crossSite = await ctx.app.inject({
      method: 'POST',
      url: '/api/cliente',
      headers: {
        cookie,
        host: 'novus.example',
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'nome=Invasor',
    });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.json().message).toBe('Requisição de outra origem recusada.');
    const originOnly = await ctx.app.inject({
      method: 'POST',
      url: '/api/cliente',
      headers: { cookie, host: 'novus.example', origin: 'https://evil.example' },
      payload: { nome: 'Invasor 2' },
    });
    expect(originOnly.statusCode).toBe(403);
    const list = await ctx.app.inject({ method: 'GET', url: '/api/cliente', headers: { cookie } });
    expect(list.json()).toEqual([]);

    const sameOrigin = await ctx.app.inject({
      method: 'POST',
      url: '/api/cliente',
      headers: {
        cookie,
        host: 'novus.example',
        origin: 'http://novus.example',
        'sec-fetch-site': 'same-origin',
      },
      payload: { nome: 'Legítimo' },
    });
    expect(sameOrigin.statusCode).toBe(201);
  });

  it('stores what the app sends to /api/logger', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/logger',
      payload: {
        severity: 'ERROR',
        message: 'SINCRONIZACAO UNIDADES',
        extras: { tecnico: 'Maria', erro: 'timeout' },
      },
    });
    expect(response.statusCode).toBe(204);
    const rows = await ctx.db.query<{ message: string; extras: { tecnico: string } }>(
      'SELECT message, extras FROM logs',
    );
    expect(rows).toEqual([
      { message: 'SINCRONIZACAO UNIDADES', extras: { tecnico: 'Maria', erro: 'timeout' } },
    ]);
    const bad = await ctx.app.inject({ method: 'POST', url: '/api/logger', payload: { severity: 'ERROR' } });
    expect(bad.statusCode).toBe(400);
  });
});
