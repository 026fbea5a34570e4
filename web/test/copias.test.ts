// The phones as the last backup (issue 39), the phone's half: what a sync sent of the flows that leave the device is
// kept for a window, trimmed when it ends or space runs short, and each sync asks the server about this technician's
// copies: what a restored server lacks is sent again, lost photo files are given back, deletions are respected.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RETENCAO_COPIAS_DIAS } from '@novus/domain/constants';
import type { FlowDefinition } from '@novus/domain/flows/flow';
import { ipFlow } from '@novus/domain/flows/ip';
import { posteFlow } from '@novus/domain/flows/poste';
import { FLOWS } from '@novus/domain/flows/registry';
import { unidadeFlow } from '@novus/domain/flows/unidade';
import { COPIAS_LIMITE_USO, CopiasDatabase, CopiaStore, retencaoCopiasDias } from '../src/offline/copias';
import { type LocalProjeto, NovusDatabase } from '../src/offline/db';
import { type LocalColeta, RecordStore } from '../src/offline/records';
import { copiasText } from '../src/offline/storage-panel';
import type { StorageUsage } from '../src/offline/storage';
import {
  type CopiaPergunta,
  type CopiaResposta,
  sha256Hex,
  SYNC_TEXTS,
  SyncEngine,
  type SyncResult,
  type SyncTransport,
  TransportError,
  type UploadFoto,
  type UploadOptions,
} from '../src/offline/sync';

const START = 1_790_000_000_000;
const DAY = 24 * 60 * 60 * 1000;
const PROJETO: LocalProjeto = {
  id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
  nome: 'Curitiba',
  fluxos: ['hc', 'poste', 'ip'],
  zonas: [{ _id: '0190a1b2-c3d4-7e5f-8a9b-000000000001', label: 'Zona Centro' }],
};
const AQUI = { lat: -25.435, lng: -49.275 };

function photo(seed: number, size = 3000): Blob {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i += 1) bytes[i] = (seed * 31 + i * 7) % 256;
  bytes.set([0xff, 0xd8, 0xff], 0);
  return new Blob([bytes], { type: 'image/jpeg' });
}

const bytesOf = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());

/** A record the server holds: whose, and its photos' bytes by slot. */
interface Held {
  flow: string;
  tecnico: string;
  fotos: Map<number, Uint8Array>;
  reenvio: boolean;
}

/**
 * A server with the real one's answers to a kept record: held (and the photo files it lacks), lacking, deleted on
 * purpose (a tombstone), or another technician's. `restore()` plays a backup from before some records came.
 */
class FakeServer implements SyncTransport {
  readonly records = new Map<string, Held>();
  /** Ids deleted in the back office. */
  readonly tombstones = new Set<string>();
  /** Photo files the store lost, by SHA-256. */
  readonly lostFiles = new Set<string>();
  readonly asked: CopiaPergunta[][] = [];
  readonly uploads: { id: string; reenvio: boolean; slots: number[]; named: number[] }[] = [];
  readonly restored: { id: string; slots: number[] }[] = [];
  readonly logs: { message: string; extras: Record<string, unknown> }[] = [];
  /** Who is signed in. */
  caller = 'Maria';
  /** The next conferir fails so. */
  conferirFault: TransportError | undefined;

  getProjetos = async () => [structuredClone(PROJETO)];

  async upload(
    flow: FlowDefinition,
    fields: Record<string, string>,
    fotos: UploadFoto[],
    options?: UploadOptions,
  ) {
    const id = fields.id ?? '';
    const held = this.records.get(id);
    this.uploads.push({
      id,
      reenvio: options?.reenvio === true,
      slots: fotos.flatMap((foto) => ('blob' in foto ? [foto.slot] : [])),
      named: fotos.flatMap((foto) => ('hash' in foto ? [foto.slot] : [])),
    });
    if (!held) {
      const stored = new Map<number, Uint8Array>();
      for (const foto of fotos) {
        if ('blob' in foto) stored.set(foto.slot, await bytesOf(foto.blob));
        else throw new TransportError(409, 'Foto não está no servidor.');
      }
      this.records.set(id, {
        flow: flow.key,
        tecnico: this.caller,
        fotos: stored,
        reenvio: options?.reenvio === true,
      });
    }
    return { _id: id };
  }

  async fotosNoServidor(): Promise<ReadonlySet<string>> {
    return new Set();
  }

  getByZona = async () => [];
  getByProjeto = async () => [];

  async log(message: string, extras: Record<string, unknown>) {
    this.logs.push({ message, extras });
  }

  async conferir(registros: CopiaPergunta[]): Promise<CopiaResposta[]> {
    this.asked.push(registros);
    const fault = this.conferirFault;
    if (fault) {
      this.conferirFault = undefined;
      throw fault;
    }
    const answers: CopiaResposta[] = [];
    for (const { id, fotos } of registros) {
      const held = this.records.get(id);
      if (held && held.tecnico !== this.caller) answers.push({ id, estado: 'alheio', fotosFaltando: [] });
      else if (held) {
        const hashes = new Set<string>();
        for (const bytes of held.fotos.values())
          hashes.add(await sha256Hex(new Blob([new Uint8Array(bytes)])));
        const faltando = fotos.filter((hash) => hashes.has(hash) && this.lostFiles.has(hash));
        answers.push({ id, estado: 'guardado', fotosFaltando: faltando });
      } else if (this.tombstones.has(id)) answers.push({ id, estado: 'excluido', fotosFaltando: [] });
      else answers.push({ id, estado: 'faltando', fotosFaltando: [] });
    }
    return answers;
  }

  async restaurarFotos(id: string, fotos: { slot: number; blob: Blob }[]) {
    this.restored.push({ id, slots: fotos.map(({ slot }) => slot) });
    for (const { blob } of fotos) this.lostFiles.delete(await sha256Hex(blob));
  }

  /** The database restored from a backup taken before these records came. */
  restore(...ids: string[]) {
    for (const id of ids) this.records.delete(id);
  }
}

let databases = 0;

describe('the copies of what was sent', () => {
  let clock = START;
  let db: NovusDatabase;
  let copiasDb: CopiasDatabase;
  let copias: CopiaStore;
  let records: RecordStore;
  let server: FakeServer;
  let statuses: string[];
  let usage: StorageUsage | null;

  beforeEach(() => {
    clock = START;
    databases += 1;
    db = new NovusDatabase(`Novus-copias-${databases}`);
    copiasDb = new CopiasDatabase(`NovusCopias-${databases}`);
    copias = new CopiaStore(copiasDb, () => clock);
    records = new RecordStore(db, () => clock, copias);
    server = new FakeServer();
    statuses = [];
    usage = null;
  });
  afterEach(async () => {
    db.close();
    copiasDb.close();
    await db.delete();
    await copiasDb.delete();
  });

  const sync = (tecnico = 'Maria'): Promise<SyncResult> => {
    server.caller = tecnico;
    statuses.length = 0;
    return new SyncEngine({
      db,
      records,
      transport: server,
      flows: FLOWS,
      tecnico,
      onStatus: (text) => statuses.push(text),
      now: () => clock,
      storageUsage: async () => usage,
    }).run();
  };

  async function unidade(numero: string, fotos: (Blob | null)[] = [photo(1), photo(2), photo(3)]) {
    clock += 1000;
    const made = await records.add(unidadeFlow, {
      projeto: PROJETO.id,
      dataHora: clock,
      coordenadas: AQUI,
      fotos,
      dados: {
        tipoUnidade: 'SDU',
        tipoEdificacao: 'Residencial',
        tipoImovel: 'RESIDENCIAL',
        numero,
        quantidade: '1',
      },
    });
    await records.update(unidadeFlow, { ...made, imagensCompactadas: true });
    const stored = await records.getByID(unidadeFlow, made.id);
    if (!stored) throw new Error('record vanished');
    return stored;
  }

  async function expectSamePhotos(id: string, sent: readonly (Blob | null)[]) {
    const held = server.records.get(id);
    expect([...(held?.fotos.keys() ?? [])].sort()).toEqual(
      sent.flatMap((blob, slot) => (blob ? [slot] : [])),
    );
    for (const [slot, blob] of sent.entries())
      if (blob) expect(held?.fotos.get(slot)).toEqual(await bytesOf(blob));
  }

  describe('kept on confirmation', () => {
    it('keeps a unit as sent, photos included, with who sent it, when, flow and project; it leaves Novus', async () => {
      const sent = await unidade('100');
      clock += 5000;
      await records.confirmUploaded(unidadeFlow, sent, 'Maria');
      expect(await records.getByID(unidadeFlow, sent.id)).toBeUndefined();
      expect(await records.pending(unidadeFlow)).toEqual([]);
      const [copia, ...others] = await copias.ofTecnico('Maria');
      expect(others).toEqual([]);
      expect(copia).toMatchObject({
        id: sent.id,
        fluxo: 'hc',
        projeto: PROJETO.id,
        tecnico: 'Maria',
        enviadoEm: clock,
      });
      expect(copia?.registro.dados).toEqual(sent.dados);
      expect(copia?.registro.fotosSha256).toEqual(sent.fotosSha256);
      for (const [slot, blob] of sent.fotos.entries()) {
        const kept = copia?.registro.fotos[slot];
        expect(kept && blob ? await bytesOf(kept) : null).toEqual(blob ? await bytesOf(blob) : null);
      }
      expect(await copias.resumo()).toEqual({ registros: 1, bytes: copia?.bytes });
      expect(copia?.bytes).toBeGreaterThan(9000);
    });

    it('a copy the device has no room for does not hold back the record the server confirmed', async () => {
      const sent = await unidade('100');
      const full = new RecordStore(db, () => clock, {
        keep: async () => {
          throw new DOMException('Sem espaço', 'QuotaExceededError');
        },
      } as unknown as CopiaStore); // only keep is called on confirmation
      await full.confirmUploaded(unidadeFlow, sent, 'Maria');
      expect(await records.getByID(unidadeFlow, sent.id)).toBeUndefined();
    });

    it('keeps nothing of a point, which stays on the device marked synchronised', async () => {
      const drawn = await records.addPoint(ipFlow, PROJETO.id, AQUI);
      const collected = await records.collect(ipFlow, drawn.id, {
        coordenadas: AQUI,
        fotos: [photo(5)],
        dados: { possuiIP: true },
      });
      await records.confirmUploaded(ipFlow, collected, 'Maria');
      expect((await records.getByID(ipFlow, drawn.id))?.sincronizadoEm).toBe(clock);
      expect(await copias.resumo()).toEqual({ registros: 0, bytes: 0 });
    });

    it('the storage panel says how many and how big', () => {
      expect(copiasText({ registros: 0, bytes: 0 })).toBe('Cópias de segurança: 0 registros, 0 MB');
      expect(copiasText({ registros: 1, bytes: 12_000 })).toBe('Cópias de segurança: 1 registro, 0,1 MB');
      expect(copiasText({ registros: 12, bytes: 3.45 * 1024 * 1024 })).toBe(
        'Cópias de segurança: 12 registros, 3,5 MB',
      );
      expect(copiasText({ registros: 300, bytes: 123.4 * 1024 * 1024 })).toBe(
        'Cópias de segurança: 300 registros, 123 MB',
      );
    });
  });

  describe('trimmed', () => {
    it('drops copies past the window, keeps those within it', async () => {
      const old = await unidade('1');
      await records.confirmUploaded(unidadeFlow, old, 'Maria');
      clock += DAY;
      const recent = await unidade('2');
      await records.confirmUploaded(unidadeFlow, recent, 'João');
      clock += RETENCAO_COPIAS_DIAS * DAY - DAY - 1000; // the first one is exactly at the end of its window
      expect(await copias.dropExpired(retencaoCopiasDias([PROJETO]))).toBe(0);
      clock += 1001;
      expect(await copias.dropExpired(retencaoCopiasDias([PROJETO]))).toBe(1);
      expect((await copias.ofTecnico('Maria')).length).toBe(0);
      expect((await copias.ofTecnico('João')).map(({ id }) => id)).toEqual([recent.id]);
    });

    it("keeps each project's copies for the days its form sets; one the device does not have, for the default", async () => {
      const sent = await unidade('1');
      await records.confirmUploaded(unidadeFlow, sent, 'Maria');
      clock += 3 * DAY;
      expect(await copias.dropExpired(retencaoCopiasDias([{ ...PROJETO, retencaoCopiasDias: 30 }]))).toBe(0);
      expect(await copias.dropExpired(retencaoCopiasDias([]))).toBe(0);
      expect(retencaoCopiasDias([])(PROJETO.id)).toBe(RETENCAO_COPIAS_DIAS);
      expect(await copias.dropExpired(retencaoCopiasDias([{ ...PROJETO, retencaoCopiasDias: 2 }]))).toBe(1);
      expect(await copias.ofTecnico('Maria')).toEqual([]);
    });

    it('a sync trims by the window of the project it downloads', async () => {
      server.getProjetos = async () => [{ ...structuredClone(PROJETO), retencaoCopiasDias: 2 }];
      const sent = await unidade('1');
      await records.confirmUploaded(unidadeFlow, sent, 'Maria');
      clock += 3 * DAY;
      server.records.set(sent.id, { flow: 'hc', tecnico: 'Maria', fotos: new Map(), reenvio: false });
      expect((await sync()).ok).toBe(true);
      expect(await copias.ofTecnico('Maria')).toEqual([]);
      // A longer window keeps what the default would have let go.
      server.getProjetos = async () => [{ ...structuredClone(PROJETO), retencaoCopiasDias: 30 }];
      const kept = await unidade('2');
      await records.confirmUploaded(unidadeFlow, kept, 'Maria');
      server.records.set(kept.id, { flow: 'hc', tecnico: 'Maria', fotos: new Map(), reenvio: false });
      clock += (RETENCAO_COPIAS_DIAS + 1) * DAY;
      expect((await sync()).ok).toBe(true);
      expect((await copias.ofTecnico('Maria')).map(({ id }) => id)).toEqual([kept.id]);
    });

    it('when the device passes 90 % of its quota, drops the oldest copies of every technician until under it', async () => {
      const sent: LocalColeta[] = [];
      for (const [i, tecnico] of ['Maria', 'João', 'Maria', 'João'].entries()) {
        const record = await unidade(String(i));
        await records.confirmUploaded(unidadeFlow, record, tecnico);
        sent.push(record);
      }
      const [first] = await copias.ofTecnico('Maria');
      const each = first?.bytes ?? 0;
      const quota = 100 * each;
      expect(await copias.dropForSpace({ usedBytes: COPIAS_LIMITE_USO * quota, quotaBytes: quota })).toBe(0);
      expect(await copias.dropForSpace(null)).toBe(0);
      // 1.5 copies over the line: the two oldest go, whoever sent them.
      expect(
        await copias.dropForSpace({ usedBytes: COPIAS_LIMITE_USO * quota + 1.5 * each, quotaBytes: quota }),
      ).toBe(2);
      expect((await copias.ofTecnico('Maria')).map(({ id }) => id)).toEqual([sent[2]?.id]);
      expect((await copias.ofTecnico('João')).map(({ id }) => id)).toEqual([sent[3]?.id]);
    });

    it('a sync drops expired copies, then the oldest under a small quota; what is pending is sent and kept', async () => {
      const expired = await unidade('1');
      await records.confirmUploaded(unidadeFlow, expired, 'Maria');
      clock += RETENCAO_COPIAS_DIAS * DAY + 1;
      const crowded = await unidade('2');
      await records.confirmUploaded(unidadeFlow, crowded, 'Maria');
      const pending = await unidade('3');
      // Short of space by about one copy: the oldest left after the window's trim gives way.
      usage = { usedBytes: 99_000, quotaBytes: 100_000 };
      expect((await sync()).ok).toBe(true);
      expect(server.uploads.map(({ id }) => id)).toEqual([pending.id]);
      expect(server.asked.flat().map(({ id }) => id)).toEqual([pending.id]);
      expect((await copias.ofTecnico('Maria')).map(({ id }) => id)).toEqual([pending.id]);
    });
  });

  describe('asked about at every sync', () => {
    it('asks only about this technician’s copies, with their photos’ hashes; held ones stay, nothing is sent', async () => {
      const mine = await unidade('1');
      const hers = await unidade('2');
      await records.confirmUploaded(unidadeFlow, hers, 'Ana');
      await sync(); // uploads 'mine', keeps it
      expect(server.asked).toEqual([
        [{ id: mine.id, fluxo: 'hc', fotos: mine.fotosSha256?.filter((hash) => hash !== null) }],
      ]);
      expect(statuses).toContain(SYNC_TEXTS.copias);
      expect(server.uploads.map(({ id }) => id)).toEqual([mine.id]);
      expect((await copias.ofTecnico('Ana')).map(({ id }) => id)).toEqual([hers.id]);
      expect((await copias.ofTecnico('Maria')).map(({ id }) => id)).toEqual([mine.id]);
      expect(statuses.at(-1)).toBe(SYNC_TEXTS.done);
    });

    it('sends again what a restored server lost, marked reenvio, as one record with the same photos; the copy stays', async () => {
      const a = await unidade('1');
      const b = await unidade('2');
      expect((await sync()).ok).toBe(true);
      server.restore(a.id, b.id);
      server.uploads.length = 0;
      clock += DAY;
      const result = await sync();
      expect(result).toMatchObject({ ok: true, uploaded: 0 });
      expect(statuses).toContain('Reenviando 2 registros que o servidor perdeu');
      expect(server.uploads).toEqual([
        { id: a.id, reenvio: true, slots: [0, 1, 2], named: [] },
        { id: b.id, reenvio: true, slots: [0, 1, 2], named: [] },
      ]);
      await expectSamePhotos(a.id, a.fotos);
      await expectSamePhotos(b.id, b.fotos);
      expect((await copias.ofTecnico('Maria')).map(({ id }) => id)).toEqual([a.id, b.id]);
      // Held now: the next sync sends nothing.
      server.uploads.length = 0;
      expect((await sync()).ok).toBe(true);
      expect(server.uploads).toEqual([]);
    });

    it('gives back the photo files a held record lost, only those', async () => {
      const sent = await unidade('1');
      await sync();
      const lost = sent.fotosSha256?.[1];
      if (typeof lost !== 'string') throw new Error('no hash');
      server.lostFiles.add(lost);
      server.uploads.length = 0;
      expect((await sync()).ok).toBe(true);
      expect(server.restored).toEqual([{ id: sent.id, slots: [1] }]);
      expect(server.uploads).toEqual([]);
      expect(server.lostFiles.size).toBe(0);
    });

    it('lets go of a copy deleted on purpose on the server, or someone else’s, sending nothing', async () => {
      const deleted = await unidade('1');
      const taken = await unidade('2');
      await sync();
      server.restore(deleted.id);
      server.tombstones.add(deleted.id);
      const other = server.records.get(taken.id);
      if (other) other.tecnico = 'Ana';
      server.uploads.length = 0;
      expect((await sync()).ok).toBe(true);
      expect(server.uploads).toEqual([]);
      expect(await copias.resumo()).toEqual({ registros: 0, bytes: 0 });
      expect(server.records.has(deleted.id)).toBe(false);
    });

    it('never sends a kept photo whose bytes no longer match its hash, and says so', async () => {
      const sent = await unidade('1');
      await sync();
      // The photo in slot 2 reads back other bytes than those written (iOS 18's corruption).
      const [copia] = await copias.ofTecnico('Maria');
      if (!copia) throw new Error('no copy');
      await copiasDb.copia.put({
        ...copia,
        registro: {
          ...copia.registro,
          fotos: [copia.registro.fotos[0] ?? null, copia.registro.fotos[1] ?? null, photo(99)],
        },
      });
      server.restore(sent.id);
      server.uploads.length = 0;
      const result = await sync();
      expect(result.ok).toBe(false);
      expect(server.uploads).toEqual([{ id: sent.id, reenvio: true, slots: [0, 1], named: [] }]);
      expect(result.error).toMatch(
        /^Foto 3 da cópia de segurança de um registro de Unidades \(.+\) está corrompida no aparelho e não foi reenviada ao servidor\.$/,
      );
      expect(statuses.at(-1)).toBe(`${result.error ?? ''} — ${SYNC_TEXTS.failed}`);
      expect(server.logs.map(({ message }) => message)).toEqual(['SINCRONIZACAO COPIAS']);
    });

    it('a failure of the question loses nothing and undoes nothing: the records’ sync stands, the copies stay', async () => {
      const first = await unidade('1');
      await sync();
      const second = await unidade('2');
      server.conferirFault = new TransportError(0, 'Sem conexão');
      const result = await sync();
      expect(result).toMatchObject({ ok: false, uploaded: 1 });
      expect(result.error).toBe(
        'Não foi possível conferir as cópias de segurança com o servidor (Sem conexão). Os registros enviados e ' +
          'as cópias continuam guardados.',
      );
      expect(statuses.at(-1)).toBe(`${result.error ?? ''} — ${SYNC_TEXTS.failed}`);
      expect(await records.pending(unidadeFlow)).toEqual([]);
      expect(server.records.has(second.id)).toBe(true);
      expect((await copias.ofTecnico('Maria')).map(({ id }) => id)).toEqual([first.id, second.id]);
      expect(server.logs.map(({ message }) => message)).toEqual(['SINCRONIZACAO COPIAS']);
      // The next sync asks again.
      expect((await sync()).ok).toBe(true);
    });

    it('a failed re-send ends the sync with its message; the copy stays for the next one', async () => {
      const sent = await unidade('1');
      await sync();
      server.restore(sent.id);
      const upload = server.upload.bind(server);
      server.upload = async () => {
        throw new TransportError(0, 'Sem conexão');
      };
      const result = await sync();
      expect(result.ok).toBe(false);
      expect(result.error).toContain('Não foi possível conferir as cópias de segurança');
      expect((await copias.ofTecnico('Maria')).map(({ id }) => id)).toEqual([sent.id]);
      server.upload = upload;
      expect((await sync()).ok).toBe(true);
      await expectSamePhotos(sent.id, sent.fotos);
    });

    it('an older server without the question (404) keeps the copies and ends the sync well', async () => {
      await unidade('1');
      server.conferirFault = new TransportError(404, 'Não encontrado');
      expect((await sync()).ok).toBe(true);
      expect((await copias.resumo()).registros).toBe(1);
    });

    it('asks in chunks of 500', async () => {
      const template = await unidade('1', [photo(1, 10)]);
      for (let i = 0; i < 501; i += 1) {
        clock += 1;
        await copias.keep(
          posteFlow,
          { ...template, id: `0190a1b2-c3d4-7e5f-8a9b-${String(i).padStart(12, '0')}` },
          'Maria',
        );
        server.records.set(`0190a1b2-c3d4-7e5f-8a9b-${String(i).padStart(12, '0')}`, {
          flow: 'poste',
          tecnico: 'Maria',
          fotos: new Map(),
          reenvio: false,
        });
      }
      expect((await sync()).ok).toBe(true);
      // 502 copies: the 501 and the unit this sync sent
      expect(server.asked.map((chunk) => chunk.length)).toEqual([500, 2]);
    });
  });
});
