import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { TokenService } from '../src/auth/tokens.ts';
import { createTestContext, TEST_SECRET, type TestContext } from './support/test-app.ts';

// A 1x1 transparent PNG.
/** Long enough that compressing it pays, which is when the web build writes .br and .gz copies. */
const SCRIPT = 'console.log("Levantamento de campo offline");\n'.repeat(200);
const PAGE = `<!doctype html><title>Novus</title>${'<p>Pronto para uso offline</p>'.repeat(50)}`;

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

describe('serving the web app', () => {
  let ctx: TestContext;
  let app: FastifyInstance;
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-dist-'));

  beforeAll(async () => {
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), PAGE);
    fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), SCRIPT);
    fs.writeFileSync(path.join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {})');
    fs.mkdirSync(path.join(dist, 'tiles', '19', '100'), { recursive: true });
    fs.writeFileSync(path.join(dist, 'tiles', '19', '100', '200.png'), PNG);
    // The web build's own last step.
    execFileSync(process.execPath, [
      path.join(import.meta.dirname, '../../web/scripts/precompress.mjs'),
      dist,
    ]);
    ctx = await createTestContext();
    app = await buildApp({
      db: ctx.db,
      tokens: new TokenService(TEST_SECRET, 30),
      blobs: ctx.blobs,
      webDist: dist,
      tilesDir: path.join(dist, 'tiles'),
      tiles: {
        street: '/tiles/{z}/{x}/{y}.png',
        satellite: 'https://sat.example/{z}/{y}/{x}',
        download: 'https://download.example/{z}/{x}/{y}.png',
      },
    });
  });
  afterAll(async () => {
    await app.close();
    await ctx.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('serves the app shell for client-side routes, never cached stale', async () => {
    for (const url of ['/', '/login?target=backoffice', '/backoffice/cliente', '/projeto/123']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves hashed assets as immutable and the service worker as no-cache', async () => {
    const asset = await app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const sw = await app.inject({ method: 'GET', url: '/sw.js' });
    expect(sw.headers['cache-control']).toBe('no-cache');
  });

  it('sends the build’s brotli or gzip copy as the browser accepts, and the file itself otherwise', async () => {
    const decode = { br: zlib.brotliDecompressSync, gzip: zlib.gunzipSync, none: (bytes: Buffer) => bytes };
    for (const [url, body] of [
      ['/assets/app-abc123.js', SCRIPT],
      ['/backoffice/cliente', PAGE],
    ] as const) {
      for (const [accept, encoding] of [
        ['gzip, deflate, br, zstd', 'br'],
        ['gzip', 'gzip'],
        ['identity', 'none'],
      ] as const) {
        const response = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': accept } });
        expect(response.statusCode, `${url} ${accept}`).toBe(200);
        expect(response.headers['content-encoding'] ?? 'none', `${url} ${accept}`).toBe(encoding);
        expect(String(response.headers.vary).toLowerCase()).toContain('accept-encoding');
        if (encoding !== 'none') expect(response.rawPayload.length).toBeLessThan(body.length / 4);
        expect(decode[encoding](response.rawPayload).toString('utf8')).toBe(body);
      }
    }
  });

  it('answers JSON 404 for unknown API paths and missing files', async () => {
    for (const url of ['/api/nada', '/assets/old-999.js']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ message: 'Recurso não encontrado.' });
    }
  });

  it('answers /api/health with the database reachable', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json().status).toBe('ok');
  });

  it('serves map tiles from a local folder and tells the app its tile URLs, allowed by the CSP', async () => {
    const tile = await app.inject({ method: 'GET', url: '/tiles/19/100/200.png' });
    expect(tile.statusCode).toBe(200);
    expect(tile.headers['content-type']).toBe('image/png');
    expect(tile.rawPayload.equals(PNG)).toBe(true);
    expect((await app.inject({ method: 'GET', url: '/tiles/19/100/201.png' })).statusCode).toBe(404);
    const config = await app.inject({ method: 'GET', url: '/api/config' });
    expect(config.json()).toEqual({
      tiles: {
        street: '/tiles/{z}/{x}/{y}.png',
        satellite: 'https://sat.example/{z}/{y}/{x}',
        download: 'https://download.example/{z}/{x}/{y}.png',
      },
      // no sign-in with the company's account configured
      oidc: null,
    });
    expect(config.headers['content-security-policy']).toContain(
      "img-src 'self' data: blob: https://sat.example",
    );
    // Security headers: no framing by anyone, scripts only from the server (no inline), no HSTS over http.
    const csp = String(config.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(/script-src[^;]*unsafe-inline/.test(csp)).toBe(false);
    expect(config.headers['x-frame-options']).toBe('DENY');
    expect(config.headers['x-content-type-options']).toBe('nosniff');
    expect(config.headers['strict-transport-security']).toBeUndefined();
  });
});
