// The sync engine against a fake network that drops requests and responses at every step: after each fault
// and a retry, the server has each record exactly once with byte-identical photos, and the device lost nothing.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FlowDefinition } from '@novus/domain/flows/flow';
import { FLOWS } from '@novus/domain/flows/registry';
import { posteFlow } from '@novus/domain/flows/poste';
import { unidadeFlow } from '@novus/domain/flows/unidade';
import { type LocalProjeto, NovusDatabase } from '../src/offline/db';
import { type LocalColeta, RecordStore } from '../src/offline/records';
import {
  type RemoteColeta,
  SessionExpiredError,
  SYNC_TEXTS,
  SyncEngine,
  type SyncTransport,
  TransportError,
} from '../src/offline/sync';

const PROJETO: LocalProjeto = {
  id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
  nome: 'Curitiba',
  fluxos: ['hc', 'poste'],
  zonas: [{ _id: '0190a1b2-c3d4-7e5f-8a9b-000000000001', label: 'Zona Centro' }],
};

type Fault = 'request' | 'response' | 'portal' | 'expired';

interface StoredRecord {
  flow: string;
  fields: Record<string, string>;
  fotos: Map<number, Uint8Array>;
}

/** An in-memory server with the real one's idempotency: the same id twice is one record. */
class FakeServer implements SyncTransport {
  readonly records = new Map<string, StoredRecord>();
  readonly logs: string[] = [];
  calls = 0;
  /** The call number (1-based, counting every request) at which to fail, and how. */
  fault: { at: number; kind: Fault } | undefined;

  private async step<T>(run: () => Promise<T>): Promise<T> {
    this.calls += 1;
    const fault = this.fault?.at === this.calls ? this.fault.kind : undefined;
    if (fault === 'request') throw new TransportError(0, 'Failed to fetch');
    if (fault === 'expired') throw new TransportError(401, 'Sessão expirada');
    const answer = await run();
    if (fault === 'response') throw new TransportError(0, 'Failed to fetch');
    // A captive portal answers 200 with its own page instead of ours.
    if (fault === 'portal') return { html: '<html>Faça login no Wi-Fi</html>' } as T;
    return answer;
  }

  getProjetos() {
    return this.step(async () => [structuredClone(PROJETO)]);
  }

  upload(flow: FlowDefinition, fields: Record<string, string>, fotos: { slot: number; blob: Blob }[]) {
    return this.step(async () => {
      const id = fields.id ?? '';
      if (!this.records.has(id)) {
        const bytes = new Map<number, Uint8Array>();
        for (const foto of fotos) bytes.set(foto.slot, new Uint8Array(await foto.blob.arrayBuffer()));
        this.records.set(id, { flow: flow.key, fields, fotos: bytes });
      }
      return { _id: id, sincronizadoEm: 1 };
    });
  }

  getByZona(flow: FlowDefinition) {
    return this.step(async () =>
      [...this.records.entries()]
        .filter(([, record]) => record.flow === flow.key)
        .map(([id, record]): RemoteColeta => ({
          _id: id,
          projeto: record.fields.projeto ?? '',
          coordenadas: JSON.parse(record.fields.coordenadas ?? 'null'),
          dataHora: Number(record.fields.dataHora),
          sincronizadoEm: 1_800_000_000_000,
          fotos: [...record.fotos.keys()].map((slot) => `/api/fotos/${id}/${slot}`),
          numero: record.fields.numero,
        })),
    );
  }

  async log(message: string) {
    this.logs.push(message);
  }
}

function photo(seed: number, size = 3000): Blob {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i += 1) bytes[i] = (seed * 31 + i * 7) % 256;
  bytes.set([0xff, 0xd8, 0xff], 0);
  return new Blob([bytes], { type: 'image/jpeg' });
}

async function bytesOf(blob: Blob): Promise<Uint8Array> {
  return new Uint8Array(await blob.arrayBuffer());
}

describe('SyncEngine', () => {
  let db: NovusDatabase;
  let store: RecordStore;
  let server: FakeServer;
  let clock = 1_790_000_000_000;
  const statuses: string[] = [];
  const engine = () =>
    new SyncEngine({
      db,
      transport: server,
      flows: FLOWS,
      tecnico: 'Maria',
      onStatus: (s) => statuses.push(s),
    });

  async function collect(): Promise<Map<string, { flow: FlowDefinition; record: LocalColeta }>> {
    const made = new Map<string, { flow: FlowDefinition; record: LocalColeta }>();
    for (let i = 0; i < 2; i += 1) {
      clock += 1000;
      const unidade = await store.add(unidadeFlow, {
        projeto: PROJETO.id,
        dataHora: clock,
        coordenadas: { lat: -25.435, lng: -49.275 },
        precisao: 5,
        fotos: [photo(i * 10 + 1), photo(i * 10 + 2), photo(i * 10 + 3)],
        dados: {
          tipoUnidade: 'SDU',
          tipoEdificacao: 'Residencial',
          tipoImovel: 'RESIDENCIAL',
          numero: `${100 + i}`,
          quantidade: '1',
        },
      });
      made.set(unidade.id, { flow: unidadeFlow, record: unidade });
    }
    clock += 1000;
    const poste = await store.add(posteFlow, {
      projeto: PROJETO.id,
      dataHora: clock,
      coordenadas: { lat: -25.436, lng: -49.276 },
      fotos: [photo(90), null, photo(91)],
      dados: {
        tipo: 'CONCRETO DUPLO T',
        altura: '11',
        carga: '300',
        tipoRedeEletrica: 'MISTA',
        aterramento: true,
        equipamentoRedeEnergia: 'NAO POSSUI',
      },
    });
    made.set(poste.id, { flow: posteFlow, record: poste });
    // Compressed already (compression has its own tests); sync refuses otherwise.
    for (const { flow, record } of made.values())
      await store.update(flow, { ...record, imagensCompactadas: true });
    return made;
  }

  async function expectEverythingOnServerOnce(
    made: Map<string, { flow: FlowDefinition; record: LocalColeta }>,
  ) {
    expect([...server.records.keys()].sort()).toEqual([...made.keys()].sort());
    for (const [id, { record }] of made) {
      const stored = server.records.get(id);
      for (const [slot, blob] of record.fotos.entries()) {
        if (!blob) {
          expect(stored?.fotos.has(slot)).toBe(false);
          continue;
        }
        expect(stored?.fotos.get(slot)).toEqual(await bytesOf(blob));
      }
    }
  }

  async function expectDeviceKeptEveryUnconfirmed(
    made: Map<string, { flow: FlowDefinition; record: LocalColeta }>,
  ) {
    for (const [id, { flow, record }] of made) {
      const local = await store.getByID(flow, id);
      if (!server.records.has(id)) {
        // The server never got it: the device must still have it, photos and all.
        expect(local?.sincronizadoEm).toBeUndefined();
        for (const [slot, blob] of record.fotos.entries()) {
          const kept = local?.fotos[slot];
          if (blob && kept) expect(await bytesOf(kept)).toEqual(await bytesOf(blob));
          else expect(kept ?? null).toBe(blob);
        }
      }
    }
  }

  beforeEach(async () => {
    db = new NovusDatabase(`Novus-sync-${Math.random()}`);
    store = new RecordStore(db, () => clock);
    server = new FakeServer();
    statuses.length = 0;
  });
  afterEach(async () => {
    db.close();
    await db.delete();
  });

  it('uploads units then poles, deletes them only after the server echoed their ids, and downloads by zone', async () => {
    const made = await collect();
    const result = await engine().run();
    expect(result).toEqual({ ok: true, uploaded: 3, downloaded: 3 });
    expect(statuses).toEqual([
      SYNC_TEXTS.start,
      SYNC_TEXTS.projetos,
      'Sincronizando unidades',
      'Sincronizando postes',
      SYNC_TEXTS.done,
    ]);
    await expectEverythingOnServerOnce(made);
    expect(await store.pending(unidadeFlow)).toEqual([]);
    expect(await store.pending(posteFlow)).toEqual([]);
    const downloaded = await store.getAll(unidadeFlow);
    expect(downloaded.map((r) => r.dados.numero).sort()).toEqual(['100', '101']);
    expect(downloaded.every((r) => r.sincronizadoEm && r.fotosUrls?.length === 3)).toBe(true);
    expect(await db.projeto.toArray()).toEqual([PROJETO]);
  });

  // Calls of a clean run: 1 projects, 2-3 units, 4 pole, 5-6 downloads by zone (units, poles).
  const FAULT_POINTS = [1, 2, 3, 4, 5, 6];
  const KINDS: Fault[] = ['request', 'response', 'portal'];

  for (const kind of KINDS) {
    it.each(FAULT_POINTS)(
      `a %s fault at call %i loses nothing, and the retry duplicates nothing`.replace('%s', kind),
      async (at) => {
        const made = await collect();
        server.fault = { at, kind };
        const first = await engine().run();
        expect(first.ok).toBe(false);
        expect(statuses.at(-1)).toContain(SYNC_TEXTS.failed);
        expect(server.logs.length).toBe(1);
        await expectDeviceKeptEveryUnconfirmed(made);

        server.fault = undefined;
        statuses.length = 0;
        const retry = await engine().run();
        expect(retry.ok).toBe(true);
        expect(statuses.at(-1)).toBe(SYNC_TEXTS.done);
        await expectEverythingOnServerOnce(made);
        expect(await store.pending(unidadeFlow)).toEqual([]);
        expect(await store.pending(posteFlow)).toEqual([]);
      },
    );
  }

  it('an expired session asks for login again and keeps every record', async () => {
    const made = await collect();
    server.fault = { at: 3, kind: 'expired' };
    await expect(engine().run()).rejects.toBeInstanceOf(SessionExpiredError);
    await expectDeviceKeptEveryUnconfirmed(made);
    const pendingCount = (await store.pending(unidadeFlow)).length + (await store.pending(posteFlow)).length;
    expect(pendingCount + server.records.size).toBe(made.size);
    server.fault = undefined;
    expect((await engine().run()).ok).toBe(true);
    await expectEverythingOnServerOnce(made);
  });

  it('never overwrites a record still pending on the device with a downloaded one', async () => {
    const made = await collect();
    const [id, entry] = [...made.entries()][0] ?? [];
    if (!id || !entry) throw new Error('no record');
    const remote: RemoteColeta = {
      _id: id,
      projeto: PROJETO.id,
      coordenadas: { lat: 0, lng: 0 },
      dataHora: 1,
      sincronizadoEm: 2,
      fotos: [],
      numero: 'SERVIDOR',
    };
    const other: RemoteColeta = { ...remote, _id: '0190a1b2-c3d4-7e5f-8a9b-0000000000ff', numero: 'NOVO' };
    expect(await engine().merge(unidadeFlow, [remote, other])).toBe(1);
    const local = await store.getByID(unidadeFlow, id);
    expect(local?.dados.numero).toBe(entry.record.dados.numero);
    expect(local?.sincronizadoEm).toBeUndefined();
    expect((await store.getByID(unidadeFlow, other._id))?.dados.numero).toBe('NOVO');
  });

  it('refuses to sync while photos are uncompressed (checked before starting)', async () => {
    await store.add(unidadeFlow, {
      projeto: PROJETO.id,
      dataHora: clock,
      coordenadas: { lat: -25.435, lng: -49.275 },
      fotos: [photo(1)],
      dados: { numero: '1' },
    });
    expect(await store.hasUncompressed(FLOWS)).toBe(true);
  });
});
