// The phones as the last backup (issue 39), end to end: the device's real sync engine, with its copies of what it sent,
// against the real server. A server restored from a backup (the record's rows and its photo files gone) is made whole
// by the next sync, byte for byte; a record deleted in the back office stays deleted, and the device lets its copy go.
import 'fake-indexeddb/auto';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLOWS } from '@novus/domain/flows/registry';
import { unidadeFlow } from '@novus/domain/flows/unidade';
import { HttpSyncTransport } from '../../web/src/api/sync-transport.ts';
import { CopiasDatabase, CopiaStore } from '../../web/src/offline/copias.ts';
import { NovusDatabase } from '../../web/src/offline/db.ts';
import { RecordStore } from '../../web/src/offline/records.ts';
import { SyncEngine } from '../../web/src/offline/sync.ts';
import { CENTRO } from './support/fixtures.ts';
import {
  createFieldProject,
  createTestContext,
  fakeJpeg,
  loginCookie,
  type TestContext,
} from './support/test-app.ts';

const sha256 = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');

describe('the phones as the last backup, the device against the server', () => {
  let ctx: TestContext;
  let tecnicoLogin: string;
  let tecnicoId: string;
  let admin: string;
  let projeto: string;

  const count = async (sql: string, params: unknown[] = []) =>
    (await ctx.db.query<{ n: number }>(sql, params))[0]?.n ?? -1;
  const fotoBytes = async (registro: string, slot: number, cookie: string) =>
    (
      await ctx.app.inject({
        method: 'GET',
        url: `/api/fotos/${registro}/${slot}`,
        headers: { cookie },
      })
    ).rawPayload;

  beforeAll(async () => {
    ctx = await createTestContext();
    const campo = await createFieldProject(ctx.app, ctx.db, { nome: 'Última cópia', fluxos: ['hc'] });
    projeto = campo.projeto;
    tecnicoLogin = campo.tecnico.login;
    tecnicoId = campo.tecnico.id;
    admin = campo.admin;
  });
  afterAll(async () => ctx.close());

  /** A technician's phone: real HTTP with the session, its Novus and its copies, and the uploads it made. */
  async function device() {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' }).catch(() => undefined);
    const base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    const cookie = await loginCookie(ctx.app, tecnicoLogin);
    const uploads: { id: string; reenvio: boolean; files: number }[] = [];
    const fetchFn: typeof fetch = async (input, init = {}) => {
      const headers = new Headers(init.headers);
      headers.set('cookie', cookie);
      const body = init.body instanceof FormData ? init.body : undefined;
      if (body?.has('id')) {
        uploads.push({
          id: String(body.get('id')),
          reenvio: body.get('reenvio') === '1',
          files: body.getAll('fotos').length,
        });
      }
      return fetch(new URL(String(input), base), { ...init, headers });
    };
    const name = crypto.randomUUID();
    const db = new NovusDatabase(`copias-${name}`);
    const copias = new CopiaStore(new CopiasDatabase(`copias-copias-${name}`));
    const records = new RecordStore(db, Date.now, copias);
    const statuses: string[] = [];
    const engine = new SyncEngine({
      db,
      records,
      transport: new HttpSyncTransport(fetchFn),
      flows: FLOWS,
      tecnico: 'T',
      onStatus: (text) => statuses.push(text),
      storageUsage: async () => null,
    });
    expect((await engine.run()).ok).toBe(true); // the project
    return { engine, records, copias, uploads, statuses, cookie };
  }

  async function unidade(records: RecordStore, numero: string) {
    const fotos = [fakeJpeg(), fakeJpeg(), fakeJpeg()];
    const record = await records.add(unidadeFlow, {
      projeto,
      dataHora: Date.UTC(2026, 10, 27, 9, Number(numero)),
      coordenadas: CENTRO,
      fotos: fotos.map((bytes) => new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' })),
      dados: {
        tipoUnidade: 'SDU',
        tipoEdificacao: 'Residencial',
        tipoImovel: 'RESIDENCIAL',
        numero,
        quantidade: '1',
      },
    });
    await records.update(unidadeFlow, { ...record, imagensCompactadas: true });
    return { id: record.id, hashes: fotos.map(sha256) };
  }

  async function expectOnServerOnce({ id, hashes }: { id: string; hashes: string[] }, cookie: string) {
    expect(await count('SELECT count(*)::int AS n FROM registros WHERE id = $1', [id])).toBe(1);
    const fotos = await ctx.db.query<{ hash: string }>(
      'SELECT hash FROM fotos WHERE registro = $1 ORDER BY slot',
      [id],
    );
    expect(fotos.map((foto) => foto.hash)).toEqual(hashes);
    for (const [slot, hash] of hashes.entries()) expect(sha256(await fotoBytes(id, slot, cookie))).toBe(hash);
  }

  /** What a restore from last night's backup does to a record sent today: its rows and its photo files gone. */
  async function restoreWithout({ id, hashes }: { id: string; hashes: string[] }) {
    await ctx.db.query('DELETE FROM fotos WHERE registro = $1', [id]);
    await ctx.db.query('DELETE FROM registros WHERE id = $1', [id]);
    for (const hash of hashes) await ctx.blobs.remove(hash);
  }

  it('a unit synced, the server restored without it: the next sync sends it again, once, byte-identical', async () => {
    const { engine, records, copias, uploads, statuses, cookie } = await device();
    const lost = await unidade(records, '1');
    const kept = await unidade(records, '2');
    expect((await engine.run()).ok).toBe(true);
    expect(await records.pending(unidadeFlow)).toEqual([]);
    expect((await copias.resumo()).registros).toBe(2);
    await expectOnServerOnce(lost, cookie);

    await restoreWithout(lost);
    uploads.length = 0;
    statuses.length = 0;
    const result = await engine.run();
    expect(result.ok, result.error).toBe(true);
    expect(statuses).toContain('Reenviando 1 registros que o servidor perdeu');
    expect(uploads).toEqual([{ id: lost.id, reenvio: true, files: 3 }]);
    await expectOnServerOnce(lost, cookie);
    await expectOnServerOnce(kept, cookie);
    // Audited as sent again, by whom.
    const audit = await ctx.db.query<{ usuario: string; depois: { reenvio?: boolean } | null }>(
      'SELECT usuario, depois FROM auditoria WHERE entidade_id = $1 ORDER BY id',
      [lost.id],
    );
    expect(audit.filter(({ depois }) => depois?.reenvio === true).map(({ usuario }) => usuario)).toEqual([
      tecnicoId,
    ]);
    // The copy stays for its window; held now, the next sync sends nothing.
    expect((await copias.resumo()).registros).toBe(2);
    uploads.length = 0;
    expect((await engine.run()).ok).toBe(true);
    expect(uploads).toEqual([]);
  });

  it('a photo file lost with the record kept: the phone gives back that photo', async () => {
    const { engine, records, cookie } = await device();
    const sent = await unidade(records, '3');
    expect((await engine.run()).ok).toBe(true);
    const hash = sent.hashes[1] ?? '';
    await ctx.blobs.remove(hash);
    expect(await ctx.blobs.open(hash)).toBeUndefined();
    const result = await engine.run();
    expect(result.ok, result.error).toBe(true);
    await expectOnServerOnce(sent, cookie);
  });

  it('a record deleted by an administrador is not sent again, and the phone lets its copy go', async () => {
    const { engine, records, copias, uploads } = await device();
    const sent = await unidade(records, '4');
    expect((await engine.run()).ok).toBe(true);
    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/registro/${sent.id}`,
      headers: { cookie: admin },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    uploads.length = 0;
    const result = await engine.run();
    expect(result.ok, result.error).toBe(true);
    expect(uploads).toEqual([]);
    expect(await count('SELECT count(*)::int AS n FROM registros WHERE id = $1', [sent.id])).toBe(0);
    expect(await copias.ofTecnico('T')).toEqual([]);
  });
});
