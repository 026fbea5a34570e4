// Sign-in with the company's account (OpenID Connect, issue 42), against a real provider (oidc-provider on
// 127.0.0.1): the sign-in, an account Novus does not know, a user deleted in Novus, an account the directory
// disabled, a wrong state, a replayed callback and a replayed code, an expired ID token, one for another audience
// or from another issuer, the provider's logout, and a provider that does not answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OIDC_TEXTS } from '@novus/domain/entrada';
import type { LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app.ts';
import { OIDC_NOME_PADRAO, OidcLogin, oidcConfig } from '../src/auth/oidc.ts';
import { openPostgres } from '../src/db/database.ts';
import { OIDC_CLIENT, startTestProvider, type TestProvider } from './support/oidc-provider.ts';
import { createTestContext, createUser, loginCookie, type TestContext } from './support/test-app.ts';

const PUBLIC_URL = 'http://novus.test/';
type Claims = Record<string, unknown>;
const HTML = { accept: 'text/html,application/xhtml+xml' };

function cookieOf(response: LightMyRequestResponse, name: string): string | undefined {
  return response.cookies.find((cookie) => cookie.name === name && cookie.value !== '')?.value;
}

function settingsFor(provider: TestProvider) {
  const settings = oidcConfig({
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: OIDC_CLIENT.id,
    OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
    OIDC_NOME: 'Entrar com a conta Agiltec',
    PUBLIC_URL,
  });
  if (!settings) throw new Error('no settings');
  return settings;
}

describe('entrar com a conta da empresa (OpenID Connect)', () => {
  let provider: TestProvider;
  let ctx: TestContext;

  beforeAll(async () => {
    provider = await startTestProvider(PUBLIC_URL);
    ctx = await createTestContext({ oidc: new OidcLogin(settingsFor(provider)) });
  });
  afterAll(async () => {
    await ctx.close();
    await provider.close();
  });

  /** Novus's redirect to the provider: its Location and the cookie binding the attempt to this browser. */
  async function entrar(target?: string) {
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/api/auth/oidc/entrar${target ? `?target=${encodeURIComponent(target)}` : ''}`,
    });
    expect(response.statusCode).toBe(303);
    const estado = cookieOf(response, 'oidc_estado');
    expect(estado).toBeTruthy();
    return { location: new URL(response.headers.location as string), estado: estado as string };
  }

  const callback = (url: URL, estado: string | undefined, headers: Record<string, string> = HTML) =>
    ctx.app.inject({
      method: 'GET',
      url: `${url.pathname}${url.search}`,
      headers: { ...headers, ...(estado ? { cookie: `oidc_estado=${estado}` } : {}) },
    });

  /** The whole journey of `account`: Novus's redirect, the provider's pages, the callback. */
  async function journey(account: string, target?: string) {
    const { location, estado } = await entrar(target);
    const back = await provider.signIn(location.href, account);
    return { back, estado, response: await callback(back, estado) };
  }

  async function recusas(login: string) {
    return ctx.db.query<{ usuario: string | null; usuario_nome: string; depois: Record<string, string> }>(
      `SELECT usuario, usuario_nome, depois FROM auditoria WHERE entidade = 'acesso' AND acao = 'recusar'
       AND entidade_id = $1`,
      [login],
    );
  }

  it('offers the button by OIDC_NOME in /api/config', async () => {
    const config = await ctx.app.inject({ method: 'GET', url: '/api/config' });
    expect(config.json<{ oidc: unknown }>().oidc).toEqual({ nome: 'Entrar com a conta Agiltec' });
  });

  it('sends to the provider with PKCE (S256), state and nonce, kept where every server reads them', async () => {
    const { location, estado } = await entrar('backoffice/usuarios');
    expect(location.origin).toBe(provider.issuer);
    const params = location.searchParams;
    expect(params.get('client_id')).toBe(OIDC_CLIENT.id);
    expect(params.get('redirect_uri')).toBe(`${PUBLIC_URL}api/auth/oidc/callback`);
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(params.get('state')).toBe(estado);
    expect(params.get('nonce')).toBeTruthy();
    expect(params.get('scope')).toBe('openid profile email');
    const rows = await ctx.db.query<{ destino: string; nonce: string }>(
      'SELECT destino, nonce FROM oidc_tentativas WHERE estado = $1',
      [estado],
    );
    expect(rows).toEqual([{ destino: '/backoffice/usuarios', nonce: params.get('nonce') }]);
  });

  it('signs in the Novus user whose login is the claim (any case): the same session as a password login', async () => {
    const user = await createUser(ctx.db, { roles: ['tecnico'], login: 'Maria.Souza' });
    provider.accounts.add('maria.souza');
    const { response } = await journey('maria.souza', 'mapa');
    expect(response.statusCode).toBe(303);
    const next = new URL(response.headers.location as string);
    expect(`${next.origin}${next.pathname}`).toBe(`${PUBLIC_URL}login`);
    expect(Object.fromEntries(next.searchParams)).toEqual({
      entrada: 'empresa',
      login: 'Maria.Souza',
      target: '/mapa',
      sair: '1',
    });
    const session = response.cookies.find((cookie) => cookie.name === 'auth_token');
    expect(session?.httpOnly).toBe(true);
    expect(session?.maxAge).toBe(30 * 24 * 3600);
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { cookie: `auth_token=${session?.value}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ nome: 'Fulano de Tal', roles: ['tecnico'], zonas: [] });
    expect(user.login).toBe('Maria.Souza');
    // the attempt was taken
    expect(await ctx.db.query('SELECT 1 FROM oidc_tentativas WHERE destino = $1', ['/mapa'])).toEqual([]);
  });

  it('refuses an account Novus does not know, in Portuguese, with no session and an audit entry', async () => {
    provider.accounts.add('joao.ninguem');
    const { response } = await journey('joao.ninguem');
    expect(response.statusCode).toBe(403);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain(OIDC_TEXTS.naoCadastrado);
    expect(response.body).toContain('href="/login"');
    expect(cookieOf(response, 'auth_token')).toBeUndefined();
    const entries = await recusas('joao.ninguem');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      usuario: null,
      usuario_nome: 'joao.ninguem',
      depois: { motivo: 'não cadastrado', provedor: `${provider.issuer}/` },
    });
    // the administrador reads it in the audit log
    const admin = await createUser(ctx.db, { roles: ['administrador'] });
    const log = await ctx.app.inject({
      method: 'GET',
      url: '/api/auditoria',
      headers: { cookie: await loginCookie(ctx.app, admin.login) },
    });
    expect(log.statusCode).toBe(200);
    expect(log.json<{ entradas: { acao: string; entidade: string }[] }>().entradas).toContainEqual(
      expect.objectContaining({ acao: 'recusar', entidade: 'acesso' }),
    );
  });

  it('refuses a user deleted in Novus likewise', async () => {
    const user = await createUser(ctx.db, { roles: ['supervisor'], login: 'ana.deletada' });
    await ctx.db.query('DELETE FROM usuarios WHERE id = $1', [user.id]);
    provider.accounts.add('ana.deletada');
    const { response } = await journey('ana.deletada');
    expect(response.statusCode).toBe(403);
    expect(response.body).toContain(OIDC_TEXTS.naoCadastrado);
    expect(cookieOf(response, 'auth_token')).toBeUndefined();
    expect(await recusas('ana.deletada')).toHaveLength(1);
  });

  it('refuses an account the directory disabled: the provider answers access_denied, Novus gives no session', async () => {
    await createUser(ctx.db, { roles: ['tecnico'], login: 'pedro.desligado' });
    provider.accounts.delete('pedro.desligado');
    const { back, response } = await journey('pedro.desligado');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(response.statusCode).toBe(401);
    expect(response.body).toContain(OIDC_TEXTS.naoAutorizada);
    expect(cookieOf(response, 'auth_token')).toBeUndefined();
  });

  it('refuses a callback whose state is not the browser’s, or has no attempt: 400, never a session', async () => {
    await createUser(ctx.db, { roles: ['tecnico'], login: 'carla.estado' });
    provider.accounts.add('carla.estado');
    const { location, estado } = await entrar();
    const back = await provider.signIn(location.href, 'carla.estado');
    // another browser's cookie, none, and a state made up
    const other = await entrar();
    for (const response of [
      await callback(back, other.estado),
      await callback(back, undefined),
      await callback(new URL(`${back.pathname}?code=x&state=inventado`, PUBLIC_URL), 'inventado'),
    ]) {
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain(OIDC_TEXTS.tentativaInvalida);
      expect(cookieOf(response, 'auth_token')).toBeUndefined();
    }
    // a program gets the usual JSON
    const json = await callback(back, undefined, { accept: 'application/json' });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toEqual({ message: OIDC_TEXTS.tentativaInvalida });
    // the right browser still can: the refusals did not spend its attempt
    expect((await callback(back, estado)).statusCode).toBe(303);
  });

  it('refuses a replayed callback (400) and a used code under a new attempt (401)', async () => {
    await createUser(ctx.db, { roles: ['tecnico'], login: 'rui.replay' });
    provider.accounts.add('rui.replay');
    const { back, estado, response } = await journey('rui.replay');
    expect(response.statusCode).toBe(303);
    const again = await callback(back, estado);
    expect(again.statusCode).toBe(400);
    expect(cookieOf(again, 'auth_token')).toBeUndefined();
    // the same code with a fresh attempt of this browser: the provider refuses a code given once
    const fresh = await entrar();
    const replay = new URL(back);
    replay.searchParams.set('state', fresh.estado);
    const used = await callback(replay, fresh.estado);
    expect(used.statusCode).toBe(401);
    expect(used.body).toContain(OIDC_TEXTS.naoConfirmada);
    expect(cookieOf(used, 'auth_token')).toBeUndefined();
  });

  it('takes an ID token the provider signed again unchanged (the rewriting alone refuses nothing)', async () => {
    await createUser(ctx.db, { roles: ['tecnico'], login: 'lia.controle' });
    provider.accounts.add('lia.controle');
    const { location, estado } = await entrar();
    const back = await provider.signIn(location.href, 'lia.controle');
    provider.tamper = (claims) => claims;
    const response = await callback(back, estado);
    expect(provider.tamper).toBeUndefined();
    expect(response.statusCode).toBe(303);
    expect(cookieOf(response, 'auth_token')).toBeTruthy();
  });

  it.each([
    ['expired', 'lia.expirado', (claims: Claims) => ({ ...claims, iat: now() - 7200, exp: now() - 3600 })],
    ['for another audience', 'lia.audiencia', (claims: Claims) => ({ ...claims, aud: 'outro-sistema' })],
    ['from another issuer', 'lia.emissor', (claims: Claims) => ({ ...claims, iss: 'https://outro.example' })],
    ['with another nonce', 'lia.nonce', (claims: Claims) => ({ ...claims, nonce: 'outro' })],
  ])('refuses an ID token %s (401, no session)', async (_kind, login, tamper) => {
    await createUser(ctx.db, { roles: ['tecnico'], login });
    provider.accounts.add(login);
    const { location, estado } = await entrar();
    const back = await provider.signIn(location.href, login);
    provider.tamper = tamper;
    const response = await callback(back, estado);
    expect(provider.tamper).toBeUndefined(); // the token endpoint was reached and its answer rewritten
    expect(response.statusCode).toBe(401);
    expect(response.body).toContain(OIDC_TEXTS.naoConfirmada);
    expect(cookieOf(response, 'auth_token')).toBeUndefined();
  });

  it('takes the callback on another server than the one the attempt started on (state in the database)', async () => {
    // another server: its own app, its own OidcLogin and, on PostgreSQL, its own pool on the same database
    const [schema] = await ctx.db.query<{ current_schema: string }>('SELECT current_schema()');
    const url = process.env.DATABASE_URL;
    const otherDb =
      process.env.NOVUS_TEST_DB === 'postgres' && url && schema
        ? openPostgres({ connectionString: url, schema: schema.current_schema })
        : ctx.db;
    const other = await buildApp({
      db: otherDb,
      tokens: ctx.tokens,
      blobs: ctx.blobs,
      oidc: new OidcLogin(settingsFor(provider)),
    });
    try {
      await createUser(ctx.db, { roles: ['supervisor'], login: 'dois.servidores' });
      provider.accounts.add('dois.servidores');
      const { location, estado } = await entrar();
      const back = await provider.signIn(location.href, 'dois.servidores');
      const response = await other.inject({
        method: 'GET',
        url: `${back.pathname}${back.search}`,
        headers: { ...HTML, cookie: `oidc_estado=${estado}` },
      });
      expect(response.statusCode).toBe(303);
      expect(cookieOf(response, 'auth_token')).toBeTruthy();
    } finally {
      await other.close();
      if (otherDb !== ctx.db) await otherDb.close();
    }
  });

  it('behind the TLS proxy: the callback is PUBLIC_URL’s, the attempt’s cookie Secure', async () => {
    const behind = oidcConfig({
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: OIDC_CLIENT.id,
      OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
      PUBLIC_URL: 'https://campo.example.com.br',
    });
    if (!behind) throw new Error('no settings');
    const app = await buildApp({
      db: ctx.db,
      tokens: ctx.tokens,
      blobs: ctx.blobs,
      trustProxy: true,
      oidc: new OidcLogin(behind),
    });
    try {
      // as docs/operations.md's nginx forwards it: plain http to the server, https to the person
      const response = await app.inject({
        method: 'GET',
        url: '/api/auth/oidc/entrar',
        headers: {
          host: '10.0.0.11:3000',
          'x-forwarded-proto': 'https',
          'x-forwarded-host': 'campo.example.com.br',
        },
      });
      expect(response.statusCode).toBe(303);
      const location = new URL(response.headers.location as string);
      expect(location.searchParams.get('redirect_uri')).toBe(
        'https://campo.example.com.br/api/auth/oidc/callback',
      );
      const estado = response.cookies.find((cookie) => cookie.name === 'oidc_estado');
      expect(estado?.secure).toBe(true);
      expect(estado?.httpOnly).toBe(true);
      expect(estado?.path).toBe('/api/auth/oidc');
    } finally {
      await app.close();
    }
  });

  it("offers the provider's logout with the ID token as hint, back to Novus's login", async () => {
    await createUser(ctx.db, { roles: ['tecnico'], login: 'bia.sair' });
    provider.accounts.add('bia.sair');
    const { response } = await journey('bia.sair');
    const idToken = cookieOf(response, 'oidc_id_token');
    expect(idToken).toBeTruthy();
    const sair = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/oidc/sair',
      headers: { cookie: `oidc_id_token=${idToken}` },
    });
    expect(sair.statusCode).toBe(303);
    const url = new URL(sair.headers.location as string);
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get('id_token_hint')).toBe(idToken);
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${PUBLIC_URL}login`);
    // the provider takes it: its logout confirmation page
    const page = await fetch(url, { redirect: 'manual' });
    expect(page.status).toBe(200);
  });
});

describe('a provider that does not answer', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    const settings = oidcConfig({
      OIDC_ISSUER: 'http://127.0.0.1:9/realms/novus',
      OIDC_CLIENT_ID: 'novus',
      PUBLIC_URL: 'https://novus.example.com',
    });
    if (!settings) throw new Error('no settings');
    ctx = await createTestContext({ oidc: new OidcLogin(settings) });
  });
  afterAll(async () => ctx.close());

  it('answers 503 in Portuguese and keeps serving', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/auth/oidc/entrar', headers: HTML });
    expect(response.statusCode).toBe(503);
    expect(response.body).toContain(OIDC_TEXTS.indisponivel);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });
});

describe('OIDC settings', () => {
  it('are off without OIDC_ISSUER, and need OIDC_CLIENT_ID and PUBLIC_URL with it', () => {
    expect(oidcConfig({})).toBeUndefined();
    expect(() => oidcConfig({ OIDC_ISSUER: 'https://login.example.com' })).toThrow(
      /OIDC_CLIENT_ID e PUBLIC_URL/,
    );
    expect(() =>
      oidcConfig({ OIDC_ISSUER: 'ftp://x', OIDC_CLIENT_ID: 'a', PUBLIC_URL: 'https://n.example' }),
    ).toThrow(/OIDC_ISSUER inválido/);
    const settings = oidcConfig({
      OIDC_ISSUER: 'https://login.example.com/tenant/v2.0',
      OIDC_CLIENT_ID: 'a',
      PUBLIC_URL: 'https://novus.example.com/campo',
    });
    expect(settings?.nome).toBe(OIDC_NOME_PADRAO);
    expect(settings?.claimLogin).toBe('preferred_username');
    expect(settings && new OidcLogin(settings).callbackUrl.href).toBe(
      'https://novus.example.com/campo/api/auth/oidc/callback',
    );
  });
});

function now(): number {
  return Math.floor(Date.now() / 1000);
}
