// Resumable sync (issue 12): POST /api/fotos/existem tells a device which of its photos the server holds, an
// upload may name those by SHA-256 (field fotosNoServidor) instead of sending their bytes, and the device's real
// sync engine, cut mid-sync, resumes without sending again what the server confirmed or the photos it holds.
import 'fake-indexeddb/auto';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unidadeFlow } from '@novus/domain/flows/unidade';
import { FLOWS } from '@novus/domain/flows/registry';
import { HttpSyncTransport } from '../../web/src/api/sync-transport.ts';
import { NovusDatabase } from '../../web/src/offline/db.ts';
import { RecordStore } from '../../web/src/offline/records.ts';
import { SyncEngine } from '../../web/src/offline/sync.ts';
import { FOTO_NAO_ENCONTRADA } from '../src/modules/registros/upload.ts';
import { CENTRO, unidadeForm } from './support/fixtures.ts';
import {
  createFieldProject,
  createTestContext,
  createUser,
  fakeJpeg,
  loginCookie,
  type TestContext,
  uploadRecord,
} from './support/test-app.ts';

const sha256 = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');

/** The item at index, which the test made sure exists. */
function at<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`no item ${index}`);
  return item;
}

describe('resumable sync', () => {
  let ctx: TestContext;
  let tecnico: string;
  let tecnicoLogin: string;
  let supervisor: string;
  let projeto: string;

  const count = async (sql: string, params: unknown[] = []) =>
    (await ctx.db.query<{ n: number }>(sql, params))[0]?.n ?? -1;
  const existem = (payload: unknown, cookie = tecnico) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/fotos/existem',
      headers: { cookie },
      payload: payload as object,
    });
  const fotoBytes = async (registro: string, slot: number) =>
    (
      await ctx.app.inject({
        method: 'GET',
        url: `/api/fotos/${registro}/${slot}`,
        headers: { cookie: tecnico },
      })
    ).rawPayload;

  beforeAll(async () => {
    ctx = await createTestContext();
    const campo = await createFieldProject(ctx.app, ctx.db, { nome: 'Retomada', fluxos: ['hc'] });
    const { cliente } = campo;
    projeto = campo.projeto;
    tecnicoLogin = campo.tecnico.login;
    tecnico = campo.tecnicoCookie;
    supervisor = await loginCookie(
      ctx.app,
      (await createUser(ctx.db, { roles: ['supervisor'], cliente })).login,
    );
  });
  afterAll(async () => ctx.close());

  describe('POST /api/fotos/existem and fotosNoServidor', () => {
    const held = [fakeJpeg(), fakeJpeg()];
    const heldId = crypto.randomUUID();

    beforeAll(async () => {
      const response = await uploadRecord(ctx.app, 'unidade', unidadeForm(heldId, projeto), {
        fotos: held,
        cookie: tecnico,
      });
      expect(response.statusCode, response.body).toBe(201);
    });

    it('answers which of the asked photos the server holds', async () => {
      const unknown = sha256(fakeJpeg());
      const response = await existem({ hashes: [sha256(at(held, 1)), unknown, sha256(at(held, 0))] });
      expect(response.statusCode, response.body).toBe(200);
      expect(new Set(response.json().existem)).toEqual(new Set([sha256(at(held, 0)), sha256(at(held, 1))]));
      expect((await existem({ hashes: [] })).json()).toEqual({ existem: [] });
    });

    it('refuses bad questions in Portuguese and strangers', async () => {
      for (const payload of [
        {},
        { hashes: 'abc' },
        { hashes: ['nao-e-hash'] },
        { hashes: Array(1001).fill(sha256(at(held, 0))) },
      ]) {
        const response = await existem(payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
        expect(response.json().message).toMatch(/hash|fotos/i);
      }
      expect((await existem({ hashes: [] }, '')).statusCode).toBe(401);
      expect((await existem({ hashes: [] }, supervisor)).statusCode).toBe(403);
    });

    it('stores a record naming held photos by hash, beside photos sent as bytes, byte-identical', async () => {
      const id = crypto.randomUUID();
      const novo = fakeJpeg();
      const named = JSON.stringify([
        { slot: 0, hash: sha256(at(held, 1)) },
        { slot: 2, hash: sha256(at(held, 0)) },
      ]);
      const response = await uploadRecord(
        ctx.app,
        'unidade',
        unidadeForm(id, projeto, { fotosNoServidor: named }),
        {
          fotos: [novo],
          names: ['1.jpg'],
          cookie: tecnico,
        },
      );
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().fotos).toEqual([
        `/api/fotos/${id}/0`,
        `/api/fotos/${id}/1`,
        `/api/fotos/${id}/2`,
      ]);
      expect(response.json()).not.toHaveProperty('fotosNoServidor');
      expect(sha256(await fotoBytes(id, 0))).toBe(sha256(at(held, 1)));
      expect(sha256(await fotoBytes(id, 1))).toBe(sha256(novo));
      expect(sha256(await fotoBytes(id, 2))).toBe(sha256(at(held, 0)));
      // A replay (lost answer) naming every photo: 200, the same record, nothing new stored.
      const replay = await uploadRecord(
        ctx.app,
        'unidade',
        unidadeForm(id, projeto, {
          fotosNoServidor: JSON.stringify(
            [0, 1, 2].map((slot) => ({ slot, hash: sha256(at([at(held, 1), novo, at(held, 0)], slot)) })),
          ),
        }),
        { cookie: tecnico },
      );
      expect(replay.statusCode, replay.body).toBe(200);
      expect(await count('SELECT count(*)::int AS n FROM fotos WHERE registro = $1', [id])).toBe(3);
    });

    it('refuses a photo named but not held (409), a bad list or a taken slot (400), storing nothing', async () => {
      const before = await count('SELECT count(*)::int AS n FROM registros');
      const cases: [string, number, Buffer[]][] = [
        [JSON.stringify([{ slot: 0, hash: sha256(fakeJpeg()) }]), 409, []],
        ['não é json', 400, []],
        [JSON.stringify([{ slot: 0, hash: 'abc' }]), 400, []],
        [JSON.stringify([{ slot: 3, hash: sha256(at(held, 0)) }]), 400, []],
        [JSON.stringify([{ slot: 0, hash: sha256(at(held, 0)) }]), 400, [fakeJpeg()]],
      ];
      for (const [named, status, fotos] of cases) {
        const response = await uploadRecord(
          ctx.app,
          'unidade',
          unidadeForm(crypto.randomUUID(), projeto, { fotosNoServidor: named }),
          { fotos, names: fotos.map(() => '0.jpg'), cookie: tecnico },
        );
        expect(response.statusCode, `${named}: ${response.body}`).toBe(status);
        expect(typeof response.json().message).toBe('string');
        if (status === 409) expect(response.json().message).toBe(FOTO_NAO_ENCONTRADA);
      }
      expect(await count('SELECT count(*)::int AS n FROM registros')).toBe(before);
    });
  });

  describe('the device engine, cut mid-sync and resumed', () => {
    /** The device's network: real HTTP, with what each upload carried recorded, and one planned fault. */
    async function device() {
      await ctx.app.listen({ port: 0, host: '127.0.0.1' }).catch(() => undefined);
      const base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
      const cookie = await loginCookie(ctx.app, tecnicoLogin);
      const uploads: { id: string; files: number; named: number }[] = [];
      let fault: ((id: string) => 'lose-request' | 'lose-response' | undefined) | undefined;
      let afterExistem: (() => Promise<void>) | undefined;
      const fetchFn: typeof fetch = async (input, init = {}) => {
        const headers = new Headers(init.headers);
        headers.set('cookie', cookie);
        const body = init.body instanceof FormData ? init.body : undefined;
        const id = String(body?.get('id') ?? '');
        const what = body ? fault?.(id) : undefined;
        if (what === 'lose-request') throw new TypeError('fetch failed');
        if (body) {
          const named = body.get('fotosNoServidor');
          uploads.push({
            id,
            files: body.getAll('fotos').length,
            named: typeof named === 'string' ? (JSON.parse(named) as unknown[]).length : 0,
          });
        }
        const response = await fetch(new URL(String(input), base), { ...init, headers });
        if (String(input).endsWith('/existem') && afterExistem) {
          const body = await response.text();
          await afterExistem();
          return new Response(body, { status: response.status, headers: response.headers });
        }
        if (what === 'lose-response') {
          await response.arrayBuffer();
          throw new TypeError('fetch failed');
        }
        return response;
      };
      const db = new NovusDatabase(`resumable-${crypto.randomUUID()}`);
      const records = new RecordStore(db);
      const engine = new SyncEngine({
        db,
        records,
        transport: new HttpSyncTransport(fetchFn),
        flows: FLOWS,
        tecnico: 'T',
      });
      await engine.run(); // the project
      return {
        engine,
        records,
        uploads,
        setFault: (f: typeof fault) => (fault = f),
        setAfterExistem: (f: typeof afterExistem) => (afterExistem = f),
      };
    }

    async function collect(records: RecordStore, n: number) {
      const made = [];
      for (let i = 0; i < n; i += 1) {
        const fotos = [fakeJpeg(), fakeJpeg(), fakeJpeg()];
        const record = await records.add(unidadeFlow, {
          projeto,
          dataHora: Date.UTC(2026, 10, 24, 11, i),
          coordenadas: CENTRO,
          fotos: fotos.map((bytes) => new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' })),
          dados: {
            tipoUnidade: 'SDU',
            tipoEdificacao: 'Residencial',
            tipoImovel: 'RESIDENCIAL',
            numero: String(i),
            quantidade: '1',
          },
        });
        made.push({ id: record.id, hashes: fotos.map(sha256) });
      }
      return made;
    }

    async function expectOnServerOnce(made: { id: string; hashes: string[] }[]) {
      for (const { id, hashes } of made) {
        expect(await count('SELECT count(*)::int AS n FROM registros WHERE id = $1', [id])).toBe(1);
        const fotos = await ctx.db.query<{ slot: number; hash: string }>(
          'SELECT slot, hash FROM fotos WHERE registro = $1 ORDER BY slot',
          [id],
        );
        expect(fotos.map((foto) => foto.hash)).toEqual(hashes);
        for (const [slot, hash] of hashes.entries()) expect(sha256(await fotoBytes(id, slot))).toBe(hash);
      }
    }

    it('after a lost answer, resends the record naming its photos, not their bytes', async () => {
      const { engine, records, uploads, setFault } = await device();
      const made = await collect(records, 3);
      const second = at(made, 1);
      setFault((id) => (id === second.id ? 'lose-response' : undefined));
      expect((await engine.run()).ok).toBe(false);
      // Three uploads in flight at once (the engine's default): the three went out together.
      expect(uploads.map((u) => u.id)).toEqual(made.map((m) => m.id));
      setFault(undefined);
      uploads.length = 0;
      expect((await engine.run()).ok).toBe(true);
      // The records confirmed around the cut are not sent again; the one whose answer was lost goes without bytes.
      expect(uploads).toEqual([{ id: second.id, files: 0, named: 3 }]);
      await expectOnServerOnce(made);
      expect(await records.pending(unidadeFlow)).toEqual([]);
    });

    it('after a lost request, sends the photos the server does not hold', async () => {
      const { engine, records, uploads, setFault } = await device();
      const made = await collect(records, 2);
      setFault((id) => (id === at(made, 1).id ? 'lose-request' : undefined));
      expect((await engine.run()).ok).toBe(false);
      setFault(undefined);
      uploads.length = 0;
      expect((await engine.run()).ok).toBe(true);
      expect(uploads).toEqual([{ id: at(made, 1).id, files: 3, named: 0 }]);
      await expectOnServerOnce(made);
    });

    it('falls back to the bytes when a photo named as held is gone by the time the record arrives', async () => {
      const { engine, records, uploads, setFault, setAfterExistem } = await device();
      const made = at(await collect(records, 1), 0);
      setFault(() => 'lose-response');
      await engine.run();
      setFault(undefined);
      // The record and its photos are removed on the server between the question and the upload.
      setAfterExistem(async () => {
        await ctx.db.query('DELETE FROM fotos WHERE registro = $1', [made.id]);
        await ctx.db.query('DELETE FROM registros WHERE id = $1', [made.id]);
        for (const hash of made.hashes) await ctx.blobs.remove(hash);
      });
      uploads.length = 0;
      expect((await engine.run()).ok).toBe(true);
      setAfterExistem(undefined);
      expect(uploads).toEqual([
        { id: made.id, files: 0, named: 3 },
        { id: made.id, files: 3, named: 0 },
      ]);
      await expectOnServerOnce([made]);
    });
  });
});
