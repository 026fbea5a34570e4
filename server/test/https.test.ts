import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { TokenService } from '../src/auth/tokens.ts';
import {
  createTestContext,
  createUser,
  PASSWORD,
  TEST_SECRET,
  type TestContext,
} from './support/test-app.ts';

/** A request to the local HTTPS server, trusting its throwaway self-signed certificate. */
function request(port: number, method: string, url: string, body?: object) {
  return new Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    body: string;
  }>((resolve, reject) => {
    const payload = body ? JSON.stringify(body) : undefined;
    const req = https.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        rejectUnauthorized: false,
        headers: payload
          ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
          : {},
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('serving HTTPS directly (TLS_KEY_FILE, TLS_CERT_FILE)', () => {
  let ctx: TestContext;
  let app: FastifyInstance;
  let port = 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-tls-'));

  beforeAll(async () => {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    ctx = await createTestContext();
    await createUser(ctx.db, { login: 'tls-user', roles: ['tecnico'] });
    app = await buildApp({
      db: ctx.db,
      tokens: new TokenService(TEST_SECRET, 30),
      blobs: ctx.blobs,
      https: {
        key: fs.readFileSync(path.join(dir, 'key.pem')),
        cert: fs.readFileSync(path.join(dir, 'cert.pem')),
      },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(async () => {
    await app.close();
    await ctx.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers over TLS and marks the session cookie Secure', async () => {
    const health = await request(port, 'GET', '/api/health');
    expect(health.status).toBe(200);
    expect(health.headers['strict-transport-security']).toBe('max-age=15552000');
    const login = await request(port, 'POST', '/api/auth/login', { login: 'tls-user', password: PASSWORD });
    expect(login.status).toBe(200);
    const cookie = String(login.headers['set-cookie'] ?? '');
    expect(cookie).toContain('auth_token=');
    expect(cookie).toContain('Secure');
    expect(cookie).toContain('HttpOnly');
  });
});
