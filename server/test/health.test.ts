// GET /api/health for a load balancer: 200 when the database and the photo store answer, 503 naming the part that
// does not, and nothing of why. What counts as "the database is away" (a 503, not a 500).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../src/db/errors.ts';
import { createTestContext, type TestContext } from './support/test-app.ts';

describe('GET /api/health', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('says ok when the database and the photo store answer', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', banco: 'ok', fotos: 'ok' });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('answers 503 naming the photo store when it cannot take photos, without saying why', async () => {
    const tmp = path.join(ctx.blobDir, 'tmp');
    fs.rmSync(tmp, { recursive: true, force: true });
    try {
      const response = await ctx.app.inject({ method: 'GET', url: '/api/health' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ status: 'indisponível', banco: 'ok', fotos: 'indisponível' });
      expect(response.body).not.toContain(ctx.blobDir);
      expect(response.body).not.toContain('ENOENT');
    } finally {
      fs.mkdirSync(tmp, { recursive: true });
    }
    expect((await ctx.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });
});

describe('isDatabaseUnavailable', () => {
  const withCode = (code: string, message = 'falhou') => Object.assign(new Error(message), { code });

  it('recognises a database that is restarting, refusing or cut off', () => {
    expect(isDatabaseUnavailable(withCode('ECONNREFUSED'))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([withCode('ECONNREFUSED')], ''))).toBe(true);
    expect(
      isDatabaseUnavailable(withCode('57P01', 'terminating connection due to administrator command')),
    ).toBe(true);
    expect(isDatabaseUnavailable(withCode('57P03', 'the database system is starting up'))).toBe(true);
    expect(isDatabaseUnavailable(withCode('08006'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: withCode('ECONNRESET') }))).toBe(true);
  });

  it('leaves errors of the query itself alone', () => {
    expect(isDatabaseUnavailable(withCode('23505', 'duplicate key value'))).toBe(false);
    expect(isDatabaseUnavailable(withCode('42601', 'syntax error'))).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
