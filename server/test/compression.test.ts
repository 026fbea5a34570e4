// Compressed answers (issue 41), over real HTTP as a phone and a browser see them: a zone's preloaded points in
// brotli or gzip as the client accepts, decoding to the same JSON; what must go as it is going as it is: the live
// map's event stream (at once), photos, zips, files read by ranges, the web build's own compressed copies, small
// answers and errors.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { TokenService } from '../src/auth/tokens.ts';
import { COMPRESSION_THRESHOLD } from '../src/compression.ts';
import { PontosLive } from '../src/live/pontos.ts';
import { CENTRO, pontoIP, unidadeForm } from './support/fixtures.ts';
import { CURITIBA_BBOX, solidPng, tilesOverBbox, writePmtiles } from './support/pmtiles.ts';
import {
  createAdminCliente,
  createProjeto,
  createSession,
  createTestContext,
  fakeJpeg,
  TEST_SECRET,
  type TestContext,
  uploadRecord,
  zonaId,
} from './support/test-app.ts';

/** Preloaded points of Zona Centro: a list of ≈ 0.9 MB, past the library's in-one-go size (a stream). */
const PONTOS_CENTRO = 3000;
/** Preloaded points of Zona Batel: a list of a few KB, compressed in one go (with its Content-Length). */
const PONTOS_BATEL = 8;
/** Collected units of the CSV export. */
const UNIDADES = 5000;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body as it came over the wire, still encoded. */
  raw: Buffer;
  chunks: number;
}

/** GET over a new connection, the body read as sent (http.get decodes nothing). */
function get(base: string, url: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${url}`, { headers, agent: false }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            raw: Buffer.concat(chunks),
            chunks: chunks.length,
          }),
        );
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

function decoded(answer: Answer): Buffer {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(answer.raw);
  if (encoding === 'gzip') return zlib.gunzipSync(answer.raw);
  expect(encoding).toBeUndefined();
  return answer.raw;
}

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the test server has no port');
  return `http://127.0.0.1:${address.port}`;
}

/** Points of `zona` (its longitudes span 0.01°, latitudes -25.44..-25.43), numbered from `first`. */
function pontos(count: number, first: number, west: number) {
  return Array.from({ length: count }, (_, i) =>
    pontoIP(
      first + i,
      [-25.4395 + ((i * 7) % 90) / 10_000, west + 0.0005 + ((i * 13) % 90) / 10_000],
      `C-${i % 40}`,
      {
        quantidadeCompartilhamento: i % 4,
      },
    ),
  );
}

describe('compressed answers', () => {
  let ctx: TestContext;
  let base: string;
  let projeto: string;
  let centro: string;
  let batel: string;
  let tecnico: string;
  let supervisor: string;
  const foto = fakeJpeg(40_000);
  const registro = crypto.randomUUID();

  beforeAll(async () => {
    ctx = await createTestContext();
    const { admin, cliente } = await createAdminCliente(ctx.app, ctx.db, 'Copel');
    const criado = await createProjeto(ctx.app, admin, {
      nome: 'Pré-carregado',
      cliente,
      fluxos: ['hc', 'ip'],
      pontosIP: JSON.stringify([
        ...pontos(PONTOS_CENTRO, 1, -49.28),
        ...pontos(PONTOS_BATEL, 100_000, -49.27),
      ]),
    });
    projeto = criado._id;
    centro = zonaId(criado, 'Zona Centro');
    batel = zonaId(criado, 'Zona Batel');
    ({ cookie: tecnico } = await createSession(ctx.app, ctx.db, {
      roles: ['tecnico'],
      cliente,
      zonas: [centro, batel],
    }));
    ({ cookie: supervisor } = await createSession(ctx.app, ctx.db, { roles: ['supervisor'], cliente }));
    const upload = await uploadRecord(ctx.app, 'unidade', unidadeForm(registro, projeto), {
      fotos: [foto],
      cookie: tecnico,
    });
    expect(upload.statusCode, upload.body).toBe(201);
    await ctx.db.query(
      `INSERT INTO registros (id, fluxo, projeto, lat, lng, geom, data_hora, coletado, dados)
       SELECT gen_random_uuid(), 'hc', $1, $2 + i * 1e-7, $3, ST_SetSRID(ST_MakePoint($3, $2 + i * 1e-7), 4326),
         now() - i * interval '1 second', true,
         jsonb_build_object('numero', i::text, 'tipoUnidade', 'SDU', 'observacao', repeat('texto longo ', 10))
       FROM generate_series(1, ${UNIDADES}) i`,
      [projeto, CENTRO.lat, CENTRO.lng],
    );
    base = await listen(ctx.app);
  });

  afterAll(async () => {
    // fetch keeps its connections alive, and the server's close would wait for them.
    ctx.app.server.closeAllConnections();
    await ctx.close();
  });

  it("sends a zone's preloaded points in brotli or gzip as the client accepts, the same JSON once decoded", async () => {
    const url = `/api/ip/getByZona?id=${centro}`;
    const plain = await get(base, url, { cookie: tecnico });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.raw.toString('utf8'))).toHaveLength(PONTOS_CENTRO);
    for (const [accept, encoding] of [
      ['gzip, deflate, br, zstd', 'br'], // Chromium over https
      ['gzip, deflate', 'gzip'], // Chromium over http, Node's fetch
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0.5, gzip', 'gzip'],
      ['*', 'gzip'],
      ['identity', undefined],
      ['deflate', undefined],
    ] as const) {
      const answer = await get(base, url, { cookie: tecnico, 'accept-encoding': accept });
      expect(answer.status, accept).toBe(200);
      expect(answer.headers['content-encoding'], accept).toBe(encoding);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      if (encoding) {
        expect(answer.headers.vary, accept).toMatch(/accept-encoding/i);
        // Streamed as it is compressed: no length announced for the encoded body.
        expect(answer.headers['content-length'], accept).toBeUndefined();
        expect(answer.raw.length, accept).toBeLessThan(plain.raw.length / 5);
      }
      expect(decoded(answer).equals(plain.raw), accept).toBe(true);
    }
  });

  it('lets fetch decode what it asked for, as the phone’s sync does', async () => {
    const response = await fetch(`${base}/api/ip/getByZona?id=${centro}`, { headers: { cookie: tecnico } });
    expect(response.headers.get('content-encoding')).toBe('gzip');
    const lista = (await response.json()) as { idConcessionaria: string }[];
    expect(lista).toHaveLength(PONTOS_CENTRO);
    expect(new Set(lista.map((ponto) => ponto.idConcessionaria)).size).toBe(PONTOS_CENTRO);
  });

  it('compresses a list of a few KB in one go, announcing its compressed length', async () => {
    const url = `/api/ip/getByZona?id=${batel}`;
    const plain = await get(base, url, { cookie: tecnico });
    expect(plain.raw.length).toBeGreaterThan(COMPRESSION_THRESHOLD);
    expect(JSON.parse(plain.raw.toString('utf8'))).toHaveLength(PONTOS_BATEL);
    const answer = await get(base, url, { cookie: tecnico, 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(answer.headers['content-encoding']).toBe('br');
    expect(Number(answer.headers['content-length'])).toBe(answer.raw.length);
    expect(decoded(answer).equals(plain.raw)).toBe(true);
  });

  it('sends small answers and errors as they are, their Portuguese message intact', async () => {
    const accept = { 'accept-encoding': 'gzip, deflate, br, zstd' };
    const projetos = await get(base, '/api/projeto/getByUser', { cookie: tecnico, ...accept });
    expect(projetos.status).toBe(200);
    expect(projetos.raw.length).toBeLessThan(COMPRESSION_THRESHOLD);
    expect(projetos.headers['content-encoding']).toBeUndefined();
    const semZona = await get(base, `/api/ip/getByZona?id=${crypto.randomUUID()}`, {
      cookie: tecnico,
      ...accept,
    });
    expect(semZona.status).toBe(404);
    expect(semZona.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(semZona.raw.toString('utf8'))).toEqual({ message: 'Zona não encontrada.' });
    const semSessao = await fetch(`${base}/api/ip/getByZona?id=${centro}`);
    expect(semSessao.status).toBe(401);
    expect(((await semSessao.json()) as { message: string }).message).toMatch(/\S/);
    const malFeito = await fetch(`${base}/api/ip/getByZona?id=nao-e-um-id`, { headers: { cookie: tecnico } });
    expect(malFeito.status).toBe(400);
    expect(((await malFeito.json()) as { message: string }).message).toMatch(/\S/);
  });

  it("keeps the live map's event stream unencoded: its opening and each event arrive at once", async () => {
    const controller = new AbortController();
    const events = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http
        .get(
          `${base}/api/projeto/${projeto}/mapa/eventos`,
          {
            headers: { cookie: supervisor, 'accept-encoding': 'gzip, deflate, br, zstd' },
            signal: controller.signal,
          },
          resolve,
        )
        .on('error', reject);
    });
    let text = '';
    const arrived = new Set<() => void>();
    events.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      for (const wake of [...arrived]) wake();
    });
    events.on('error', () => undefined);
    const waitFor = (needle: string, ms: number) =>
      new Promise<boolean>((resolve) => {
        if (text.includes(needle)) return resolve(true);
        const timer = setTimeout(() => {
          arrived.delete(wake);
          resolve(false);
        }, ms);
        const wake = () => {
          if (!text.includes(needle)) return;
          clearTimeout(timer);
          arrived.delete(wake);
          resolve(true);
        };
        arrived.add(wake);
      });
    const live = new PontosLive(ctx.db);
    try {
      expect(events.statusCode).toBe(200);
      expect(events.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(events.headers['content-encoding']).toBeUndefined();
      expect(await waitFor(': novus', 2000)).toBe(true);
      const publish = async (id: string) =>
        live.publish({
          projeto,
          zona: centro,
          fluxo: 'hc',
          id,
          lat: CENTRO.lat,
          lng: CENTRO.lng,
          status: 0,
          tecnico: null,
          dataHora: null,
        });
      // The route writes its opening before its LISTEN is in place: a probe until one comes through.
      const probe = crypto.randomUUID();
      let subscribed = false;
      for (let attempt = 0; attempt < 50 && !subscribed; attempt++) {
        await publish(probe);
        subscribed = await waitFor(probe, 100);
      }
      expect(subscribed).toBe(true);
      // Each event is written through to the socket: a compressor would hold these few bytes back.
      for (let n = 0; n < 3; n++) {
        const id = crypto.randomUUID();
        const sent = Date.now();
        await publish(id);
        expect(await waitFor(id, 1000), `event ${n}`).toBe(true);
        expect(Date.now() - sent).toBeLessThan(1000);
      }
      expect(text).toMatch(/^: novus\n\n/);
    } finally {
      await live.close();
      controller.abort();
    }
  });

  it('sends a photo as stored, never encoded, whatever the client accepts or the range it asks', async () => {
    const accept = { 'accept-encoding': 'gzip, deflate, br, zstd' };
    const asked: Record<string, string>[] = [accept, { ...accept, range: 'bytes=0-99' }];
    for (const headers of asked) {
      const answer = await get(base, `/api/fotos/${registro}/0`, { cookie: tecnico, ...headers });
      // The photo route answers whole (no ranges of its own): 200 with the file, unencoded.
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe('image/jpeg');
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.headers['content-range']).toBeUndefined();
      expect(answer.raw.equals(foto)).toBe(true);
    }
  });

  it('compresses a CSV export as it streams, and sends a zip as it is', async () => {
    const url = `/api/extrator/${projeto}/unidades.csv`;
    const plain = await get(base, url, { cookie: supervisor });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.raw.toString('utf8').split('\n').length).toBeGreaterThan(UNIDADES);
    const gzip = await get(base, url, { cookie: supervisor, 'accept-encoding': 'gzip, deflate' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers['content-disposition']).toBe(plain.headers['content-disposition']);
    // Written as the rows come: chunked, in several pieces, never gathered whole to learn its length.
    expect(gzip.headers['transfer-encoding']).toBe('chunked');
    expect(gzip.headers['content-length']).toBeUndefined();
    expect(gzip.chunks).toBeGreaterThan(1);
    expect(gzip.raw.length).toBeLessThan(plain.raw.length / 5);
    expect(decoded(gzip).equals(plain.raw)).toBe(true);

    const zip = await get(base, `/api/extrator/${projeto}/fotos.zip`, {
      cookie: supervisor,
      'accept-encoding': 'gzip, deflate, br, zstd',
    });
    expect(zip.status).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(zip.headers['content-encoding']).toBeUndefined();
    expect(zip.raw.subarray(0, 2).toString('latin1')).toBe('PK');
    expect(zip.raw.includes(foto)).toBe(true);
  });

  describe('files served as stored', () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-dist-compression-'));
    /** TILES_DIR, a folder of its own (inside the build, the build's routes would serve its files). */
    const tiles = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-tiles-compression-'));
    const page = `<!doctype html><title>Novus</title>${'<p>Pronto para uso offline</p>'.repeat(50)}`;
    /** A text file the build keeps no compressed copy of. */
    const notas = 'zona;pontos\n'.repeat(500);
    const archive = Buffer.from(
      writePmtiles({
        tiles: tilesOverBbox(CURITIBA_BBOX, [10, 11], () => solidPng([40, 80, 120], 8)),
        tileType: 'png',
        bounds: CURITIBA_BBOX,
      }),
    );
    let web: FastifyInstance;
    let webBase: string;

    beforeAll(async () => {
      fs.writeFileSync(path.join(dist, 'index.html'), page);
      fs.writeFileSync(path.join(dist, 'notas.csv'), notas);
      fs.writeFileSync(path.join(tiles, 'curitiba.pmtiles'), archive);
      fs.writeFileSync(path.join(tiles, 'leia.txt'), notas);
      execFileSync(process.execPath, [
        path.join(import.meta.dirname, '../../web/scripts/precompress.mjs'),
        dist,
      ]);
      web = await buildApp({
        db: ctx.db,
        tokens: new TokenService(TEST_SECRET, 30),
        blobs: ctx.blobs,
        webDist: dist,
        tilesDir: tiles,
      });
      webBase = await listen(web);
    });
    afterAll(async () => {
      web.server.closeAllConnections();
      await web.close();
      fs.rmSync(dist, { recursive: true, force: true });
      fs.rmSync(tiles, { recursive: true, force: true });
    });

    it('sends the build’s own brotli copy of a page as it is, never compressed twice', async () => {
      const answer = await get(webBase, '/', { 'accept-encoding': 'gzip, deflate, br, zstd' });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe('br');
      expect(zlib.brotliDecompressSync(answer.raw).toString('utf8')).toBe(page);
      // A file with no copy goes as it is: the build decided, the server does not compress files on the fly.
      const csv = await get(webBase, '/notas.csv', { 'accept-encoding': 'gzip, deflate, br, zstd' });
      expect(csv.status).toBe(200);
      expect(csv.headers['content-encoding']).toBeUndefined();
      expect(csv.raw.toString('utf8')).toBe(notas);
    });

    it('answers ranges of a PMTiles archive and of a text file with their own bytes, unencoded', async () => {
      const accept = { 'accept-encoding': 'gzip, deflate, br, zstd' };
      const whole = await get(webBase, '/tiles/curitiba.pmtiles', accept);
      expect(whole.status).toBe(200);
      expect(whole.headers['content-encoding']).toBeUndefined();
      expect(whole.headers['accept-ranges']).toBe('bytes');
      expect(Number(whole.headers['content-length'])).toBe(archive.length);
      expect(whole.raw.equals(archive)).toBe(true);
      for (const [file, bytes] of [
        ['curitiba.pmtiles', archive],
        ['leia.txt', Buffer.from(notas)],
      ] as const) {
        const head = await get(webBase, `/tiles/${file}`, { ...accept, range: 'bytes=0-126' });
        expect(head.status, file).toBe(206);
        expect(head.headers['content-range'], file).toBe(`bytes 0-126/${bytes.length}`);
        expect(head.headers['content-encoding'], file).toBeUndefined();
        expect(head.raw.equals(bytes.subarray(0, 127)), file).toBe(true);
        const tail = await get(webBase, `/tiles/${file}`, {
          ...accept,
          range: `bytes=${bytes.length - 50}-`,
        });
        expect(tail.status, file).toBe(206);
        expect(tail.headers['content-range'], file).toBe(
          `bytes ${bytes.length - 50}-${bytes.length - 1}/${bytes.length}`,
        );
        expect(tail.raw.equals(bytes.subarray(bytes.length - 50)), file).toBe(true);
      }
      const text = await get(webBase, '/tiles/leia.txt', accept);
      expect(text.headers['content-encoding']).toBeUndefined();
      expect(text.raw.toString('utf8')).toBe(notas);
    });

    it('still compresses the API of an app that serves files', async () => {
      const answer = await get(webBase, `/api/ip/getByZona?id=${centro}`, {
        cookie: tecnico,
        'accept-encoding': 'gzip, deflate, br, zstd',
      });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe('br');
      expect(JSON.parse(decoded(answer).toString('utf8'))).toHaveLength(PONTOS_CENTRO);
    });
  });

  it('sends everything as it is with compression turned off (HTTP_COMPRESSION=0: a proxy compresses)', async () => {
    const plainApp = await buildApp({
      db: ctx.db,
      tokens: new TokenService(TEST_SECRET, 30),
      blobs: ctx.blobs,
      compression: false,
    });
    try {
      const plainBase = await listen(plainApp);
      const answer = await get(plainBase, `/api/ip/getByZona?id=${centro}`, {
        cookie: tecnico,
        'accept-encoding': 'gzip, deflate, br, zstd',
      });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(answer.raw.toString('utf8'))).toHaveLength(PONTOS_CENTRO);
    } finally {
      plainApp.server.closeAllConnections();
      await plainApp.close();
    }
  });
});
