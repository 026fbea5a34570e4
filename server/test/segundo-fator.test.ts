// 'Verificação em duas etapas' (issue 42): turning it on, a wrong code, the right code, a code reused, a recovery
// code, the API's login, the rate limit, the administrador's requirement and reset. Codes come from otpauth with
// the secret the server gave, at the server's clock, as an authenticator app makes them.
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEGUNDO_FATOR_TEXTS } from '@novus/domain/auth';
import { Cifra } from '../src/auth/cifra.ts';
import {
  createTestContext,
  createUser,
  loginCookie,
  PASSWORD,
  type TestContext,
} from './support/test-app.ts';

/** The code an authenticator app shows for `segredo`, `steps` periods of 30 s from now. */
function codeOf(segredo: string, steps = 0): string {
  return TOTP.generate({ secret: Secret.fromBase32(segredo), timestamp: Date.now() + steps * 30_000 });
}

describe('verificação em duas etapas', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext({ limits: { maxPerLogin: 4, maxPerAddress: 200, windowMs: 60_000 } });
  });
  afterAll(async () => ctx.close());

  const login = (payload: Record<string, string>) =>
    ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload });

  const as = (cookie: string) => ({
    get: (url: string) => ctx.app.inject({ method: 'GET', url, headers: { cookie } }),
    post: (url: string, payload?: Record<string, unknown>) =>
      ctx.app.inject({ method: 'POST', url, headers: { cookie }, ...(payload ? { payload } : {}) }),
    put: (url: string, payload: Record<string, unknown>) =>
      ctx.app.inject({ method: 'PUT', url, headers: { cookie }, payload }),
    delete: (url: string) => ctx.app.inject({ method: 'DELETE', url, headers: { cookie } }),
  });

  /** A user who turned the second factor on from the account screen: its secret and recovery codes. */
  async function withSecondFactor(roles: ('tecnico' | 'supervisor' | 'administrador')[] = ['tecnico']) {
    const user = await createUser(ctx.db, { roles });
    const me = as(await loginCookie(ctx.app, user.login));
    const started = await me.post('/api/conta/segundo-fator');
    expect(started.statusCode).toBe(200);
    const { segredo, uri, qrSvg } = started.json<{ segredo: string; uri: string; qrSvg: string }>();
    const confirmed = await me.post('/api/conta/segundo-fator/confirmar', { codigo: codeOf(segredo) });
    expect(confirmed.statusCode).toBe(200);
    const { codigosRecuperacao } = confirmed.json<{ codigosRecuperacao: string[] }>();
    return { user, me, segredo, uri, qrSvg, codigosRecuperacao };
  }

  it('turns on from the account: a QR code and the secret, confirmed by a first code, ten recovery codes', async () => {
    const user = await createUser(ctx.db, { roles: ['tecnico'] });
    const me = as(await loginCookie(ctx.app, user.login));
    expect((await me.get('/api/conta/segundo-fator')).json()).toEqual({
      ativo: false,
      exigido: false,
      codigosRestantes: 0,
    });
    const started = (await me.post('/api/conta/segundo-fator')).json<{
      segredo: string;
      uri: string;
      qrSvg: string;
    }>();
    expect(started.segredo).toMatch(/^[A-Z2-7]{32}$/);
    expect(started.uri).toBe(
      `otpauth://totp/Novus:${user.login}?issuer=Novus&secret=${started.segredo}&algorithm=SHA1&digits=6&period=30`,
    );
    expect(started.qrSvg).toMatch(/^<svg[^>]*>.*<\/svg>\s*$/s);

    // a wrong first code turns nothing on
    const wrong = await me.post('/api/conta/segundo-fator/confirmar', { codigo: '000000' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe(SEGUNDO_FATOR_TEXTS.invalido);
    expect((await me.get('/api/conta/segundo-fator')).json().ativo).toBe(false);
    // still only the password
    expect((await login({ login: user.login, password: PASSWORD })).statusCode).toBe(200);

    const confirmed = await me.post('/api/conta/segundo-fator/confirmar', {
      codigo: codeOf(started.segredo),
    });
    expect(confirmed.statusCode).toBe(200);
    const { codigosRecuperacao } = confirmed.json<{ codigosRecuperacao: string[] }>();
    expect(codigosRecuperacao).toHaveLength(10);
    expect(new Set(codigosRecuperacao).size).toBe(10);
    for (const codigo of codigosRecuperacao) expect(codigo).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect((await me.get('/api/conta/segundo-fator')).json()).toEqual({
      ativo: true,
      exigido: false,
      codigosRestantes: 10,
    });
    // the codes are kept as hashes only
    const stored = await ctx.db.query<{ hash: string }>(
      'SELECT hash FROM codigos_recuperacao WHERE usuario = $1',
      [user.id],
    );
    expect(stored.map((row) => row.hash)).not.toContain(codigosRecuperacao[0]);
    expect(stored).toHaveLength(10);
    // and the secret sealed with AUTH_SECRET's key: the database alone does not give it
    const [row] = await ctx.db.query<{ totp_segredo: string }>(
      'SELECT totp_segredo FROM usuarios WHERE id = $1',
      [user.id],
    );
    expect(row?.totp_segredo).toMatch(/^v1:/);
    expect(row?.totp_segredo).not.toContain(started.segredo);
  });

  it('reads a secret kept before sealing; one sealed under another AUTH_SECRET is refused, not a 500', async () => {
    const { user, segredo } = await withSecondFactor();
    // as migration 0021's rows were written: the secret as it is
    await ctx.db.query('UPDATE usuarios SET totp_segredo = $2, totp_ultimo_passo = NULL WHERE id = $1', [
      user.id,
      segredo,
    ]);
    const plain = await login({ login: user.login, password: PASSWORD, codigo: codeOf(segredo, 1) });
    expect(plain.statusCode).toBe(200);
    // sealed under another secret (AUTH_SECRET changed): the code is refused, as a wrong one
    await ctx.db.query('UPDATE usuarios SET totp_segredo = $2, totp_ultimo_passo = NULL WHERE id = $1', [
      user.id,
      new Cifra('outro-segredo-de-outra-instalacao', 'totp').selar(segredo),
    ]);
    const other = await login({ login: user.login, password: PASSWORD, codigo: codeOf(segredo) });
    expect(other.statusCode).toBe(401);
    expect(other.json().message).toBe(SEGUNDO_FATOR_TEXTS.invalido);
  });

  it('with it on, the password alone opens no session; a wrong code is refused, the right one once', async () => {
    const { user, segredo } = await withSecondFactor();
    const alone = await login({ login: user.login, password: PASSWORD });
    expect(alone.statusCode).toBe(401);
    expect(alone.json().message).toBe(SEGUNDO_FATOR_TEXTS.pedir);
    expect(alone.cookies.find((c) => c.name === 'auth_token')).toBeUndefined();

    const wrong = await login({ login: user.login, password: PASSWORD, codigo: '123456' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe(SEGUNDO_FATOR_TEXTS.invalido);
    expect(wrong.cookies.find((c) => c.name === 'auth_token')).toBeUndefined();
    // the wrong password with the right code opens nothing either, and says nothing of the code
    const badPassword = await login({
      login: user.login,
      password: 'outra-senha',
      codigo: codeOf(segredo, 1),
    });
    expect(badPassword.statusCode).toBe(401);
    expect(badPassword.json().message).toBe('Login ou senha inválidos.');

    // the code the confirmation used (this step) was taken: the next step's code, as the app shows it 30 s on
    const code = codeOf(segredo, 1);
    const right = await login({
      login: user.login,
      password: PASSWORD,
      codigo: ` ${code.slice(0, 3)} ${code.slice(3)} `,
    });
    expect(right.statusCode).toBe(200);
    expect(right.json()).toMatchObject({ roles: ['tecnico'] });
    expect(right.cookies.find((c) => c.name === 'auth_token')?.value).toBeTruthy();

    const reused = await login({ login: user.login, password: PASSWORD, codigo: code });
    expect(reused.statusCode).toBe(401);
    expect(reused.json().message).toBe(SEGUNDO_FATOR_TEXTS.invalido);
    // a code of a step before one taken is refused too (no going back in the window)
    const older = await login({ login: user.login, password: PASSWORD, codigo: codeOf(segredo, 0) });
    expect(older.statusCode).toBe(401);
  });

  it('a recovery code opens one session, once; the codes left are counted', async () => {
    const { user, me, codigosRecuperacao } = await withSecondFactor();
    const [first = '', second = ''] = codigosRecuperacao;
    const opened = await login({ login: user.login, password: PASSWORD, codigo: first.toUpperCase() });
    expect(opened.statusCode).toBe(200);
    const again = await login({ login: user.login, password: PASSWORD, codigo: first });
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toBe(SEGUNDO_FATOR_TEXTS.invalido);
    expect(
      (await login({ login: user.login, password: PASSWORD, codigo: second.replace('-', '') })).statusCode,
    ).toBe(200);
    expect((await me.get('/api/conta/segundo-fator')).json().codigosRestantes).toBe(8);
  });

  it('wrong codes count toward the login rate limit: then even the right code waits', async () => {
    const { user, segredo } = await withSecondFactor();
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const wrong = await login({ login: user.login, password: PASSWORD, codigo: String(100000 + attempt) });
      expect(wrong.statusCode).toBe(401);
    }
    const blocked = await login({ login: user.login, password: PASSWORD, codigo: codeOf(segredo, 1) });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe(
      'Muitas tentativas de login. Aguarde alguns minutos e tente novamente.',
    );
    expect(blocked.cookies.find((c) => c.name === 'auth_token')).toBeUndefined();
  });

  it('turns off with a valid code only; an administrador can reset another user’s, audited', async () => {
    const { user, me, segredo } = await withSecondFactor();
    const wrong = await me.post('/api/conta/segundo-fator/desativar', { codigo: '000000' });
    expect(wrong.statusCode).toBe(401);
    expect(
      (await me.post('/api/conta/segundo-fator/desativar', { codigo: codeOf(segredo, 1) })).statusCode,
    ).toBe(204);
    expect((await login({ login: user.login, password: PASSWORD })).statusCode).toBe(200);

    const other = await withSecondFactor(['supervisor']);
    const admin = await createUser(ctx.db, { roles: ['administrador'] });
    const adminApi = as(await loginCookie(ctx.app, admin.login));
    // not for a supervisor
    const supervisor = as(
      await loginCookie(ctx.app, (await createUser(ctx.db, { roles: ['supervisor'] })).login),
    );
    expect((await supervisor.delete(`/api/user/${other.user.id}/segundo-fator`)).statusCode).toBe(403);
    // the user's form says whether it is on
    expect((await adminApi.get(`/api/user/${other.user.id}/segundo-fator`)).json()).toEqual({
      ativo: true,
      codigosRestantes: 10,
    });
    expect((await adminApi.delete(`/api/user/${other.user.id}/segundo-fator`)).statusCode).toBe(204);
    expect((await adminApi.get(`/api/user/${other.user.id}/segundo-fator`)).json()).toEqual({
      ativo: false,
      codigosRestantes: 0,
    });
    expect((await login({ login: other.user.login, password: PASSWORD })).statusCode).toBe(200);
    const entries = await ctx.db.query<{ acao: string; antes: unknown; depois: unknown }>(
      `SELECT acao, antes, depois FROM auditoria WHERE entidade = 'usuario' AND entidade_id = $1`,
      [other.user.id],
    );
    expect(entries).toEqual([
      {
        acao: 'alterar',
        antes: { verificacaoEmDuasEtapas: true },
        depois: { verificacaoEmDuasEtapas: false },
      },
    ]);
    expect(
      (await adminApi.delete('/api/user/00000000-0000-4000-8000-000000000000/segundo-fator')).statusCode,
    ).toBe(404);
  });

  it('required of administradores and supervisores: set up at login, then the code is asked every time', async () => {
    const admin = await createUser(ctx.db, { roles: ['administrador'] });
    const adminApi = as(await loginCookie(ctx.app, admin.login));
    const tecnico = await createUser(ctx.db, { roles: ['tecnico'] });
    const supervisor = await createUser(ctx.db, { roles: ['supervisor'] });
    const bad = await adminApi.put('/api/configuracoes/seguranca', { segundoFatorObrigatorio: 'sim' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/verificação em duas etapas|boolean|booleano/i);
    const set = await adminApi.put('/api/configuracoes/seguranca', { segundoFatorObrigatorio: true });
    expect(set.statusCode).toBe(200);
    expect((await adminApi.get('/api/configuracoes/seguranca')).json()).toEqual({
      segundoFatorObrigatorio: true,
    });

    try {
      // a técnico is not concerned
      expect((await login({ login: tecnico.login, password: PASSWORD })).statusCode).toBe(200);
      // the supervisor's password alone: set it up first
      const first = await login({ login: supervisor.login, password: PASSWORD });
      expect(first.statusCode).toBe(403);
      expect(first.json().message).toBe(SEGUNDO_FATOR_TEXTS.configurar);
      expect(first.cookies.find((c) => c.name === 'auth_token')).toBeUndefined();
      const wrongPassword = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/segundo-fator',
        payload: { login: supervisor.login, password: 'errada' },
      });
      expect(wrongPassword.statusCode).toBe(401);
      const setup = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/segundo-fator',
        payload: { login: supervisor.login, password: PASSWORD },
      });
      expect(setup.statusCode).toBe(200);
      const { segredo } = setup.json<{ segredo: string }>();
      expect(
        (await login({ login: supervisor.login, password: PASSWORD, codigo: '000000' })).statusCode,
      ).toBe(401);
      const turnedOn = await login({ login: supervisor.login, password: PASSWORD, codigo: codeOf(segredo) });
      expect(turnedOn.statusCode).toBe(200);
      expect(turnedOn.json().codigosRecuperacao).toHaveLength(10);
      expect(turnedOn.cookies.find((c) => c.name === 'auth_token')?.value).toBeTruthy();
      // from now on, the code at every login; and the supervisor cannot turn it off
      expect((await login({ login: supervisor.login, password: PASSWORD })).json().message).toBe(
        SEGUNDO_FATOR_TEXTS.pedir,
      );
      const me = as(await loginWithCode(supervisor.login, codeOf(segredo, 1)));
      expect((await me.get('/api/conta/segundo-fator')).json()).toMatchObject({ ativo: true, exigido: true });
      const off = await me.post('/api/conta/segundo-fator/desativar', { codigo: codeOf(segredo, 2) });
      expect(off.statusCode).toBe(403);
      const entries = await ctx.db.query<{ depois: unknown }>(
        `SELECT depois FROM auditoria WHERE entidade = 'configuracao' AND entidade_id = 'seguranca' ORDER BY id`,
      );
      expect(entries.at(-1)).toEqual({ depois: { segundoFatorObrigatorio: true } });
    } finally {
      await adminApi.put('/api/configuracoes/seguranca', { segundoFatorObrigatorio: false });
    }
  });

  async function loginWithCode(user: string, codigo: string): Promise<string> {
    const response = await login({ login: user, password: PASSWORD, codigo });
    expect(response.statusCode).toBe(200);
    return `auth_token=${response.cookies.find((c) => c.name === 'auth_token')?.value ?? ''}`;
  }
});
