// A project's basemap package (issue 23): real PMTiles archives (../shared/realworld/pmtiles: USGS imagery of
// California, a world raster, a vector fixture, an invalid file) and archives of the tests' own writer, uploaded
// through the API into the blob store, or pointed at by URL, and served tile by tile by ranges — byte for byte what
// the `pmtiles` reader reads from the file. Bad input is refused in Portuguese with nothing stored.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { PMTiles, type Source } from 'pmtiles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAPA_BASE_MEDIA,
  type MapaBase,
  mapaBaseAnswer,
  mapaBaseTileTemplate,
} from '@novus/domain/api/mapa-base';
import { buildApp } from '../src/app.ts';
import { TokenService } from '../src/auth/tokens.ts';
import { nodeDecompress } from '../src/modules/mapa-base/archive.ts';
import {
  CURITIBA_BBOX,
  gridPng,
  solidPng,
  tileRange,
  tilesOverBbox,
  writePmtiles,
  zoomColour,
} from './support/pmtiles.ts';
import {
  createFieldProject,
  createSession,
  createTestContext,
  type FieldProject,
  TEST_SECRET,
  type TestContext,
} from './support/test-app.ts';

const PMTILES_DIR = path.resolve(import.meta.dirname, '../../../shared/realworld/pmtiles');
const USGS = path.join(PMTILES_DIR, 'usgs-mt-whitney-webp-z8-15.pmtiles');
const WORLD = path.join(PMTILES_DIR, 'stamen-toner-raster-z0-3.pmtiles');
const VECTOR = path.join(PMTILES_DIR, 'vector-fixture-1.pmtiles');
const INVALID = path.join(PMTILES_DIR, 'invalid.pmtiles');
const ZONAS = ['Zona Batel', 'Zona Centro', 'Zona Rebouças'];

/** The tile at zoom z under a point of the USGS archive (Mt Whitney's area). */
const WHITNEY = (z: number): [number, number] => {
  const { minX, minY } = tileRange([-118.29, 36.577, -118.29, 36.577], z);
  return [minX, minY];
};

const sha256 = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');

/** The `pmtiles` reader over bytes in memory: what the archive holds, read by the library itself. */
function readerOf(bytes: Uint8Array): PMTiles {
  const source: Source = {
    getKey: () => sha256(bytes),
    getBytes: async (offset, length) => ({
      data: new Uint8Array(bytes.subarray(offset, offset + length)).buffer,
    }),
  };
  return new PMTiles(source, undefined, nodeDecompress);
}

/** An HTTP server answering byte ranges of the files it is given, as a CDN or object store does. */
async function rangeServer(files: Record<string, Buffer>): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    const file = files[(request.url ?? '').slice(1)];
    if (!file) return response.writeHead(404).end();
    const range = /^bytes=(\d+)-(\d+)$/.exec(request.headers.range ?? '');
    if (!range) return response.writeHead(200, { 'content-length': file.length }).end(file);
    const start = Number(range[1]);
    if (start >= file.length) return response.writeHead(416).end();
    const end = Math.min(Number(range[2]), file.length - 1);
    response
      .writeHead(206, {
        'content-range': `bytes ${start}-${end}/${file.length}`,
        'content-length': end - start + 1,
      })
      .end(file.subarray(start, end + 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('PMTiles writer of the tests', () => {
  it('writes archives the pmtiles reader reads back byte for byte, leaf directories and gzip included', async () => {
    let n = 0;
    const tiles = tilesOverBbox(CURITIBA_BBOX, [12, 13, 14, 15, 16], (z, x, y) =>
      n++ % 4 === 0 ? gridPng([x % 256, y % 256, z], [0, 0, 0], 16) : solidPng(zoomColour(z), 16),
    );
    for (const options of [
      { internalCompression: 'gzip' as const, tileCompression: 'none' as const },
      { internalCompression: 'none' as const, tileCompression: 'gzip' as const, maxRootBytes: 40 },
    ]) {
      const bytes = writePmtiles({
        tiles,
        tileType: 'png',
        bounds: CURITIBA_BBOX,
        metadata: { name: 'x' },
        ...options,
      });
      const reader = readerOf(bytes);
      const header = await reader.getHeader();
      expect(header.numAddressedTiles).toBe(tiles.length);
      expect([header.minZoom, header.maxZoom]).toEqual([12, 16]);
      expect((header.leafDirectoryLength ?? 0) > 0).toBe(options.maxRootBytes !== undefined);
      for (const tile of tiles) {
        const read = await reader.getZxy(tile.z, tile.x, tile.y);
        expect(Buffer.from(read?.data ?? new ArrayBuffer(0)).equals(Buffer.from(tile.data))).toBe(true);
      }
      expect(await reader.getZxy(11, 0, 0)).toBeUndefined();
      expect(await reader.getMetadata()).toEqual({ name: 'x' });
    }
  });
});

describe('/api/projeto/:id/mapa-base', () => {
  let ctx: TestContext;
  let field: FieldProject;
  /** A project of another client, with its own technician. */
  let other: FieldProject;
  let supervisor: string;
  let supervisorOutro: string;
  const usgs = fs.readFileSync(USGS);

  const put = (
    projeto: string,
    payload: Buffer | Uint8Array | Readable,
    { cookie = field.admin, nome = 'mapa.pmtiles', app = ctx.app, type = 'application/vnd.pmtiles' } = {},
  ) =>
    app.inject({
      method: 'PUT',
      url: `/api/projeto/${projeto}/mapa-base?nome=${encodeURIComponent(nome)}`,
      headers: { cookie, 'content-type': type },
      payload: payload instanceof Uint8Array && !Buffer.isBuffer(payload) ? Buffer.from(payload) : payload,
    });
  const get = (url: string, cookie = field.admin, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'GET', url, headers: { cookie, ...headers } });
  const tileUrl = (projeto: string, z: number, x: number, y: number, v?: string) =>
    `/api/projeto/${projeto}/mapa-base/${z}/${x}/${y}${v ? `?v=${v}` : ''}`;
  /** The archives in the local store's archive space, and what its tmp folder holds. */
  const stored = () => {
    const dir = path.join(ctx.blobDir, 'mapas');
    return fs.existsSync(dir)
      ? fs
          .readdirSync(dir, { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => e.name)
      : [];
  };
  const tmpFiles = () => fs.readdirSync(path.join(ctx.blobDir, 'tmp'));
  const rows = async () =>
    (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM mapas_base'))[0]?.n;

  beforeAll(async () => {
    process.env.MAPA_BASE_ALLOW_PRIVATE = '1';
    ctx = await createTestContext();
    field = await createFieldProject(ctx.app, ctx.db, { nome: 'Mapa Curitiba', fluxos: ['hc'] });
    other = await createFieldProject(ctx.app, ctx.db, { nome: 'Mapa Outro', fluxos: ['hc'] });
    supervisor = (await createSession(ctx.app, ctx.db, { roles: ['supervisor'], cliente: field.cliente }))
      .cookie;
    supervisorOutro = (
      await createSession(ctx.app, ctx.db, { roles: ['supervisor'], cliente: other.cliente })
    ).cookie;
  });
  afterAll(async () => {
    delete process.env.MAPA_BASE_ALLOW_PRIVATE;
    await ctx?.close();
  });

  it('answers 404 in Portuguese while the project has no package, and getProjeto says mapaBase null', async () => {
    const response = await get(`/api/projeto/${field.projeto}/mapa-base`);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'O projeto não tem mapa offline.' });
    expect((await get(tileUrl(field.projeto, 10, 0, 0), field.tecnicoCookie)).statusCode).toBe(404);
    expect((await get(`/api/projeto/${field.projeto}`)).json()).toMatchObject({ mapaBase: null });
  });

  it('takes the USGS raster as a stream, names the zones it leaves uncovered and serves every tile of zoom 13 byte for byte', async () => {
    const response = await put(field.projeto, fs.createReadStream(USGS), { nome: 'usgs.pmtiles' });
    expect(response.statusCode, response.body).toBe(200);
    const reader = readerOf(usgs);
    const header = await reader.getHeader();
    const mapa = response.json<MapaBase>();
    expect(mapa).toMatchObject({
      origem: 'arquivo',
      nome: 'usgs.pmtiles',
      tipo: 'webp',
      vetorial: false,
      minZoom: 8,
      maxZoom: 15,
      tamanho: usgs.length,
      blocos: header.numAddressedTiles,
      versao: sha256(usgs).slice(0, 16),
      camadas: [],
      zonasDescobertas: ZONAS,
    });
    expect(mapaBaseAnswer.safeParse(mapa).success).toBe(true);
    expect(mapa.limites.oeste).toBeCloseTo(-118.32, 2);
    expect(mapa.limites.leste).toBeCloseTo(-118.261, 2);
    expect(mapa.limites.sul).toBeCloseTo(36.561, 2);
    expect(mapa.limites.norte).toBeCloseTo(36.593, 2);
    expect(stored()).toEqual([sha256(usgs)]);
    expect(tmpFiles()).toEqual([]);

    // The metadata, for the project's technician and its supervisor; getProjeto and getByUser carry it too.
    for (const cookie of [field.admin, field.tecnicoCookie, supervisor]) {
      const read = await get(`/api/projeto/${field.projeto}/mapa-base`, cookie);
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual(mapa);
    }
    expect((await get(`/api/projeto/${field.projeto}`)).json()).toMatchObject({ mapaBase: mapa });
    const own = (await get('/api/projeto/getByUser', field.tecnicoCookie)).json<{ mapaBase: MapaBase }[]>();
    expect(own[0]?.mapaBase).toEqual({ ...mapa, zonasDescobertas: ['Zona Centro'] });

    const z = 13;
    const { minX, maxX, minY, maxY } = tileRange(
      [header.minLon, header.minLat, header.maxLon, header.maxLat],
      z,
    );
    let served = 0;
    for (let x = minX; x <= maxX; x++) {
      for (let y = minY; y <= maxY; y++) {
        const expected = await reader.getZxy(z, x, y);
        const tile = await get(
          mapaBaseTileTemplate(field.projeto, mapa)
            .replace('{z}', String(z))
            .replace('{x}', String(x))
            .replace('{y}', String(y)),
          field.tecnicoCookie,
        );
        if (!expected) {
          expect(tile.statusCode).toBe(404);
          continue;
        }
        expect(tile.statusCode).toBe(200);
        expect(tile.headers['content-type']).toBe('image/webp');
        expect(tile.rawPayload.equals(Buffer.from(expected.data))).toBe(true);
        served += 1;
      }
    }
    expect(served).toBeGreaterThanOrEqual(4);
  });

  it('gives tiles an ETag and a year of cache under the current version, 304 when the ETag matches', async () => {
    const mapa = (await get(`/api/projeto/${field.projeto}/mapa-base`)).json<MapaBase>();
    const [x, y] = WHITNEY(12);
    const expected = await readerOf(usgs).getZxy(12, x, y);
    expect(expected).toBeDefined();
    const fresh = await get(tileUrl(field.projeto, 12, x, y, mapa.versao), field.tecnicoCookie);
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    const etag = String(fresh.headers.etag);
    expect(etag).toBe(`"${mapa.versao}-12-${x}-${y}"`);
    const stale = await get(tileUrl(field.projeto, 12, x, y, 'outra'), field.tecnicoCookie);
    expect(stale.headers['cache-control']).toBe('private, max-age=300');
    const unchanged = await get(tileUrl(field.projeto, 12, x, y, mapa.versao), field.tecnicoCookie, {
      'if-none-match': etag,
    });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe('');
    expect(unchanged.headers.etag).toBe(etag);
  });

  it('answers 404 in Portuguese outside the archive, 403 to whoever may not see the project', async () => {
    for (const [z, x, y] of [
      [12, 0, 0],
      [16, 11000, 25000],
      [7, 22, 50],
      [3, 9, 0],
    ] as const) {
      const response = await get(tileUrl(field.projeto, z, x, y, 'v'), field.tecnicoCookie);
      expect(response.statusCode).toBe(404);
      expect(response.headers['cache-control']).toBeUndefined();
      expect(response.json()).toEqual({ message: 'O mapa offline não tem bloco nesse zoom e posição.' });
    }
    const tile = tileUrl(field.projeto, ...([12, ...WHITNEY(12)] as const));
    expect((await get(tile, supervisor)).statusCode).toBe(200);
    for (const cookie of [other.tecnicoCookie, supervisorOutro]) {
      expect((await get(tile, cookie)).statusCode).toBe(403);
      expect((await get(`/api/projeto/${field.projeto}/mapa-base`, cookie)).statusCode).toBe(403);
    }
    const interpretador = (await createSession(ctx.app, ctx.db, { roles: ['interpretador'] })).cookie;
    expect((await get(tile, interpretador)).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: 'GET', url: tile })).statusCode).toBe(401);
    // Uploads are the administrador's: the technician's is refused before a byte is stored.
    const refused = await put(field.projeto, usgs, { cookie: field.tecnicoCookie });
    expect(refused.statusCode).toBe(403);
    expect(tmpFiles()).toEqual([]);
    expect((await put(crypto.randomUUID(), usgs)).statusCode).toBe(404);
  });

  it('replaces the package with the world raster, which covers the zones, and removes the old archive', async () => {
    const world = fs.readFileSync(WORLD);
    const response = await put(field.projeto, world, { nome: 'mundo.pmtiles' });
    expect(response.statusCode, response.body).toBe(200);
    const mapa = response.json<MapaBase>();
    expect(mapa).toMatchObject({
      tipo: 'png',
      minZoom: 0,
      maxZoom: 3,
      zonasDescobertas: [],
      tamanho: world.length,
    });
    expect(mapa.versao).not.toBe(sha256(usgs).slice(0, 16));
    expect(stored()).toEqual([sha256(world)]);
    // Brazil at zoom 3 is tile (2, 4).
    const tile = await get(tileUrl(field.projeto, 3, 2, 4, mapa.versao), field.tecnicoCookie);
    expect(tile.statusCode).toBe(200);
    expect(tile.headers['content-type']).toBe('image/png');
    const expected = await readerOf(world).getZxy(3, 2, 4);
    expect(tile.rawPayload.equals(Buffer.from(expected?.data ?? new ArrayBuffer(0)))).toBe(true);
    // The old version's tiles are not served under the new one's ETag.
    expect(tile.headers.etag).toBe(`"${mapa.versao}-3-2-4"`);
  });

  it('shares one archive between two projects and removes it only with the last of them', async () => {
    const world = fs.readFileSync(WORLD);
    expect((await put(other.projeto, world, { cookie: other.admin })).statusCode).toBe(200);
    expect(stored()).toEqual([sha256(world)]);
    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/projeto/${field.projeto}/mapa-base`,
      headers: { cookie: field.admin },
    });
    expect(removed.statusCode).toBe(204);
    expect(stored()).toEqual([sha256(world)]);
    expect((await get(`/api/projeto/${field.projeto}/mapa-base`)).statusCode).toBe(404);
    expect((await get(`/api/projeto/${field.projeto}`)).json()).toMatchObject({ mapaBase: null });
    expect((await get(tileUrl(other.projeto, 3, 2, 4), other.tecnicoCookie)).statusCode).toBe(200);
    // The photo store's removal (the PhotoSweeper's) never reaches the archives' space.
    await ctx.blobs.remove(sha256(world));
    expect(await ctx.blobs.hasArchive(sha256(world))).toBe(true);
    // Deleting the other project takes its package and, now unreferenced, the archive.
    const gone = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/projeto/${other.projeto}`,
      headers: { cookie: other.admin },
    });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(stored()).toEqual([]);
    expect(await rows()).toBe(0);
    other = await createFieldProject(ctx.app, ctx.db, { nome: 'Mapa Outro 2', fluxos: ['hc'] });
  });

  it('marks a vector archive vetorial and serves its MVT tile as the reader reads it', async () => {
    const vector = fs.readFileSync(VECTOR);
    const response = await put(field.projeto, vector, { type: 'application/octet-stream' });
    expect(response.statusCode, response.body).toBe(200);
    const mapa = response.json<MapaBase>();
    expect(mapa).toMatchObject({ tipo: 'mvt', vetorial: true, camadas: ['test_fixture_1pmtiles'] });
    expect(mapaBaseAnswer.safeParse(mapa).success).toBe(true);
    const header = await readerOf(vector).getHeader();
    const { minX, minY } = tileRange(
      [header.minLon, header.minLat, header.maxLon, header.maxLat],
      header.minZoom,
    );
    const expected = await readerOf(vector).getZxy(header.minZoom, minX, minY);
    expect(expected).toBeDefined();
    const tile = await get(tileUrl(field.projeto, header.minZoom, minX, minY), field.tecnicoCookie);
    expect(tile.statusCode).toBe(200);
    expect(tile.headers['content-type']).toBe(MAPA_BASE_MEDIA.mvt);
    // The archive's tiles are gzip: to a client without gzip, served as the reader decompresses them.
    expect(header.tileCompression).toBe(2);
    expect(tile.headers['content-encoding']).toBeUndefined();
    expect(tile.rawPayload.equals(Buffer.from(expected?.data ?? new ArrayBuffer(0)))).toBe(true);
    // To a browser (gzip accepted), as stored: Content-Encoding gzip, its own ETag, the same tile once inflated.
    const gz = await get(tileUrl(field.projeto, header.minZoom, minX, minY), field.tecnicoCookie, {
      'accept-encoding': 'gzip, deflate, br',
    });
    expect(gz.statusCode).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toMatch(/accept-encoding/i);
    expect(gz.headers.etag).not.toBe(tile.headers.etag);
    expect(zlib.gunzipSync(gz.rawPayload).equals(tile.rawPayload)).toBe(true);
  });

  it('answers 404 in Portuguese when the archive is gone from the store behind its back', async () => {
    const bytes = writePmtiles({
      tiles: tilesOverBbox(CURITIBA_BBOX, [10], () => solidPng([1, 2, 3], 8)),
      tileType: 'png',
      bounds: CURITIBA_BBOX,
    });
    const mapa = (await put(field.projeto, bytes)).json<MapaBase>();
    await ctx.blobs.removeArchive(sha256(bytes));
    const { minX, minY } = tileRange(CURITIBA_BBOX, 10);
    const tile = await get(tileUrl(field.projeto, 10, minX, minY, mapa.versao), field.tecnicoCookie);
    expect(tile.statusCode).toBe(404);
    expect(tile.json()).toEqual({
      message: 'O arquivo do mapa offline não está no armazenamento: envie o mapa de novo.',
    });
  });

  it("serves a package of the tests' writer over the project's zones at zoom 19, covering them", async () => {
    const tiles = tilesOverBbox(CURITIBA_BBOX, [17, 18, 19], (z) => solidPng(zoomColour(z), 64));
    const bytes = writePmtiles({
      tiles,
      tileType: 'png',
      bounds: CURITIBA_BBOX,
      metadata: { attribution: 'Ortofoto de teste' },
    });
    const response = await put(field.projeto, bytes);
    expect(response.statusCode, response.body).toBe(200);
    const mapa = response.json<MapaBase>();
    expect(mapa).toMatchObject({
      minZoom: 17,
      maxZoom: 19,
      blocos: tiles.length,
      atribuicao: 'Ortofoto de teste',
    });
    expect(mapa.zonasDescobertas).toEqual([]);
    const sample = tiles.filter((tile) => tile.z === 19).slice(0, 20);
    for (const tile of sample) {
      const served = await get(tileUrl(field.projeto, 19, tile.x, tile.y), field.tecnicoCookie);
      expect(served.rawPayload.equals(Buffer.from(tile.data))).toBe(true);
    }
  });

  describe('refuses bad input in Portuguese, storing nothing and serving on', () => {
    const expectNothingStored = async (before: string[]) => {
      expect(stored()).toEqual(before);
      expect(tmpFiles()).toEqual([]);
      const still = await get(`/api/projeto/${field.projeto}/mapa-base`);
      expect(still.statusCode).toBe(200);
    };

    it('refuses a file that is no PMTiles (422)', async () => {
      const before = stored();
      for (const bytes of [
        fs.readFileSync(INVALID),
        Buffer.from('PMTiles\u0002'.padEnd(200, 'x')),
        Buffer.alloc(0),
      ]) {
        const response = await put(field.projeto, bytes);
        expect(response.statusCode, response.body).toBe(422);
        expect(response.json().message).toMatch(/PMTiles/);
      }
      await expectNothingStored(before);
    });

    it('refuses a truncated copy of a real archive (422)', async () => {
      const before = stored();
      for (const length of [100, 20_000, Math.floor(usgs.length / 2), usgs.length - 1]) {
        const response = await put(field.projeto, usgs.subarray(0, length));
        expect(response.statusCode, `${length}: ${response.body}`).toBe(422);
        expect(response.json().message).toMatch(/PMTiles/);
      }
      await expectNothingStored(before);
    });

    it('refuses an archive compressed with zstd, which this server cannot read (422)', async () => {
      const before = stored();
      const bytes = writePmtiles({
        tiles: tilesOverBbox(CURITIBA_BBOX, [12], () => solidPng([9, 9, 9], 8)),
        tileType: 'png',
        bounds: CURITIBA_BBOX,
      });
      bytes[98] = 4; // tile compression: zstd
      const response = await put(field.projeto, bytes);
      expect(response.statusCode).toBe(422);
      expect(response.json().message).toMatch(/zstd/);
      await expectNothingStored(before);
    });

    it('refuses an archive of 0 tiles (422)', async () => {
      const before = stored();
      const response = await put(
        field.projeto,
        writePmtiles({ tiles: [], tileType: 'png', bounds: CURITIBA_BBOX }),
      );
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({ message: 'O arquivo PMTiles não tem nenhum bloco de mapa.' });
      await expectNothingStored(before);
    });

    /** A PUT over a real connection declaring `length` bytes, of which only `first` are sent: its answer. */
    async function partialPut(
      length: number,
      first: Buffer,
      end = false,
    ): Promise<{ status: number; body: string }> {
      if (!ctx.app.server.listening) await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = ctx.app.server.address() as AddressInfo;
      return new Promise((resolve, reject) => {
        const request = http.request({
          host: '127.0.0.1',
          port,
          method: 'PUT',
          path: `/api/projeto/${field.projeto}/mapa-base`,
          headers: {
            cookie: field.admin,
            'content-type': 'application/vnd.pmtiles',
            'content-length': String(length),
          },
        });
        request.on('response', (response) => {
          let body = '';
          response.on('data', (chunk: Buffer) => (body += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        });
        request.on('error', reject);
        // The first bytes, and then nothing: the answer must come without the rest.
        if (end) request.end(first);
        else request.write(first);
      });
    }

    it('takes a whole archive over a real connection too', async () => {
      const world = fs.readFileSync(WORLD);
      const answer = await partialPut(world.length, world, true);
      expect(answer.status, answer.body).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ tipo: 'png', tamanho: world.length });
      expect(stored()).toEqual([sha256(world)]);
    });

    it('refuses 10 GB declared in Content-Length with 413 before reading the body', async () => {
      const before = stored();
      const answer = await partialPut(10 * 1024 ** 3, usgs.subarray(0, 64 * 1024));
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toEqual({
        message: 'O arquivo excede o tamanho máximo do mapa offline (8 GiB).',
      });
      await expectNothingStored(before);
    });

    it('refuses a big upload that is no PMTiles at its first bytes, without waiting for the rest (422)', async () => {
      const before = stored();
      const answer = await partialPut(50 * 1024 ** 2, crypto.randomBytes(64 * 1024));
      expect(answer.status).toBe(422);
      expect(JSON.parse(answer.body).message).toMatch(/não é um mapa PMTiles/);
      await expectNothingStored(before);
    });

    it('refuses a chunked upload past MAPA_BASE_MAX_BYTES as its bytes are counted (413)', async () => {
      const before = stored();
      const small = await otherApp({ maxBytes: 500_000, allowPrivate: true });
      try {
        const response = await put(field.projeto, Readable.from(chunks(usgs, 64 * 1024)), { app: small });
        expect(response.statusCode).toBe(413);
        expect(response.json().message).toBe('O arquivo excede o tamanho máximo do mapa offline (0,5 MB).');
      } finally {
        await small.close();
      }
      await expectNothingStored(before);
    });
  });

  describe('a package at a URL, read by ranges', () => {
    let files: Awaited<ReturnType<typeof rangeServer>>;
    beforeAll(async () => {
      files = await rangeServer({
        'usgs.pmtiles': usgs,
        'invalid.pmtiles': fs.readFileSync(INVALID),
        'cortado.pmtiles': usgs.subarray(0, 300_000),
      });
    });
    afterAll(async () => files?.close());

    it('stores the URL with the archive facts and serves its tiles by ranges, byte for byte', async () => {
      const before = stored();
      const url = `${files.url}/usgs.pmtiles`;
      const response = await ctx.app.inject({
        method: 'PUT',
        url: `/api/projeto/${field.projeto}/mapa-base/url`,
        headers: { cookie: field.admin },
        payload: { url },
      });
      expect(response.statusCode, response.body).toBe(200);
      const mapa = response.json<MapaBase>();
      expect(mapa).toMatchObject({
        origem: 'url',
        nome: url,
        tipo: 'webp',
        minZoom: 8,
        maxZoom: 15,
        tamanho: usgs.length,
        zonasDescobertas: ZONAS,
      });
      // The writer's archive it replaced is gone from the store.
      expect(stored()).toEqual(before.filter((hash) => hash !== before[0]));
      const reader = readerOf(usgs);
      const [cx, cy] = WHITNEY(13);
      for (const [x, y] of [
        [cx, cy],
        [cx + 1, cy],
        [cx, cy + 1],
      ] as const) {
        const expected = await reader.getZxy(13, x, y);
        const tile = await get(tileUrl(field.projeto, 13, x, y, mapa.versao), field.tecnicoCookie);
        if (expected) expect(tile.rawPayload.equals(Buffer.from(expected.data))).toBe(true);
        else expect(tile.statusCode).toBe(404);
      }
    });

    it('refuses a URL that is no archive, a truncated one, and one that does not answer (422)', async () => {
      for (const url of [
        `${files.url}/invalid.pmtiles`,
        `${files.url}/cortado.pmtiles`,
        `${files.url}/nada.pmtiles`,
      ]) {
        const response = await ctx.app.inject({
          method: 'PUT',
          url: `/api/projeto/${field.projeto}/mapa-base/url`,
          headers: { cookie: field.admin },
          payload: { url },
        });
        expect(response.statusCode, url).toBe(422);
      }
      expect((await get(`/api/projeto/${field.projeto}/mapa-base`)).json()).toMatchObject({ origem: 'url' });
    });

    it('refuses a loopback or private URL without MAPA_BASE_ALLOW_PRIVATE (SSRF)', async () => {
      const strict = await otherApp({ maxBytes: 1024 ** 3, allowPrivate: false });
      try {
        for (const url of [
          `${files.url}/usgs.pmtiles`,
          'http://localhost:9/x.pmtiles',
          'http://[::1]/x.pmtiles',
          'http://10.0.0.8/x.pmtiles',
        ]) {
          const response = await strict.inject({
            method: 'PUT',
            url: `/api/projeto/${field.projeto}/mapa-base/url`,
            headers: { cookie: field.admin },
            payload: { url },
          });
          expect(response.statusCode, url).toBe(422);
          expect(response.json().message).toMatch(/endereço interno/);
        }
      } finally {
        await strict.close();
      }
    });
  });

  /** Another app on the same database and store, with its own basemap settings. */
  async function otherApp(mapaBase: { maxBytes: number; allowPrivate: boolean }): Promise<FastifyInstance> {
    const app = await buildApp({
      db: ctx.db,
      tokens: new TokenService(TEST_SECRET, 30),
      blobs: ctx.blobs,
      mapaBase,
    });
    await app.ready();
    return app;
  }
});

function* chunks(bytes: Buffer, size: number): Generator<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}
