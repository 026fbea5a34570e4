// The caller kept a few seconds per token (issue 22, auth/callers.ts): a change to a user or a logout made through
// one server is seen by another on the same database at once (a trigger's NOTIFY), and nothing is kept while the
// notifications could be missed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { Callers, KEEP_MS } from '../src/auth/callers.ts';
import { TokenService } from '../src/auth/tokens.ts';
import type { Database, ListenGaps } from '../src/db/database.ts';
import {
  createTestContext,
  createUser,
  loginCookie,
  TEST_SECRET,
  type TestContext,
} from './support/test-app.ts';

/** A database that only listens, as the test says: notifications and gaps are sent by hand. */
function listeningDb() {
  const heard: { notify?: (payload: string) => void; gaps?: ListenGaps } = {};
  let listen: () => void = () => undefined;
  const listening = new Promise<void>((resolve) => (listen = resolve));
  const db = {
    listen: async (_channel: string, handler: (payload: string) => void, gaps?: ListenGaps) => {
      heard.notify = handler;
      if (gaps) heard.gaps = gaps;
      await listening;
      return async () => undefined;
    },
  } as unknown as Database;
  return { db, heard, listen };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('Callers', () => {
  it('keeps an answer for KEEP_MS once listening, and forgets it on a notification', async () => {
    let now = 1_000;
    const { db, heard, listen } = listeningDb();
    const callers = new Callers(db, () => now);
    let loads = 0;
    const load = async () => ++loads;
    // Not listening yet: every call reads.
    expect(await callers.get('k', load)).toBe(1);
    expect(await callers.get('k', load)).toBe(2);
    listen();
    await settle();
    expect(await callers.get('k', load)).toBe(3);
    expect(await callers.get('k', load)).toBe(3);
    now += KEEP_MS - 1;
    expect(await callers.get('k', load)).toBe(3);
    now += 1;
    expect(await callers.get('k', load)).toBe(4);
    heard.notify?.('usuarios');
    expect(await callers.get('k', load)).toBe(5);
  });

  it('keeps nothing from a lost LISTEN connection until it listens again', async () => {
    const { db, heard, listen } = listeningDb();
    const callers = new Callers(db);
    let loads = 0;
    const load = async () => ++loads;
    listen();
    await callers.get('k', load);
    await settle();
    expect(await callers.get('k', load)).toBe(2);
    expect(await callers.get('k', load)).toBe(2);
    heard.gaps?.lost();
    expect(await callers.get('k', load)).toBe(3);
    expect(await callers.get('k', load)).toBe(4);
    heard.gaps?.restored();
    expect(await callers.get('k', load)).toBe(5);
    expect(await callers.get('k', load)).toBe(5);
  });

  it('does not keep an answer read while a change came, nor a failed one', async () => {
    const { db, heard, listen } = listeningDb();
    const callers = new Callers(db);
    listen();
    await callers.get('start', async () => 0);
    await settle();
    let release: (value: string) => void = () => undefined;
    const slow = callers.get('k', () => new Promise<string>((resolve) => (release = resolve)));
    heard.notify?.('usuarios');
    release('old');
    expect(await slow).toBe('old');
    expect(await callers.get('k', async () => 'new')).toBe('new');
    await expect(callers.get('f', () => Promise.reject(new Error('away')))).rejects.toThrow('away');
    expect(await callers.get('f', async () => 'back')).toBe('back');
  });
});

describe('two servers on one database', () => {
  let ctx: TestContext;
  let other: FastifyInstance;

  beforeAll(async () => {
    ctx = await createTestContext();
    other = await buildApp({ db: ctx.db, tokens: new TokenService(TEST_SECRET, 30), blobs: ctx.blobs });
    await other.ready();
  });
  afterAll(async () => {
    await other.close();
    await ctx.close();
  });

  /** Asks B until it answers `status`, for up to 2 s: a NOTIFY is delivered once the change commits. */
  async function untilStatus(url: string, cookie: string, status: number) {
    const deadline = Date.now() + 2000;
    for (;;) {
      const response = await other.inject({ method: 'GET', url, headers: { cookie } });
      if (response.statusCode === status || Date.now() > deadline) return response.statusCode;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('sees a role taken away and a logout on the other server within moments, not after KEEP_MS', async () => {
    const admin = await createUser(ctx.db, { login: 'callers-admin', roles: ['administrador'] });
    const cookie = await loginCookie(ctx.app, 'callers-admin');
    // B reads (and keeps) the caller twice.
    for (let i = 0; i < 2; i++) {
      expect(
        (await other.inject({ method: 'GET', url: '/api/cliente', headers: { cookie } })).statusCode,
      ).toBe(200);
    }
    const started = Date.now();
    await ctx.db.query(`UPDATE usuarios SET roles = '{tecnico}' WHERE id = $1`, [admin.id]);
    expect(await untilStatus('/api/cliente', cookie, 403)).toBe(403);
    expect(Date.now() - started).toBeLessThan(KEEP_MS);

    const second = await loginCookie(ctx.app, 'callers-admin');
    expect(await untilStatus('/api/auth/me', second, 200)).toBe(200);
    const loggedOut = Date.now();
    const logout = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie: second },
    });
    expect(logout.statusCode).toBe(204);
    expect(await untilStatus('/api/auth/me', second, 401)).toBe(401);
    expect(Date.now() - loggedOut).toBeLessThan(KEEP_MS);
  });
});
