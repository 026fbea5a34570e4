// The sync engine against a fake network that drops requests and responses at every step: after each fault
// and a retry, the server has each record exactly once with byte-identical photos, and the device lost nothing.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bdgdFlow } from '@novus/domain/flows/bdgd';
import { fiscalizacaoFlow } from '@novus/domain/flows/fiscalizacao';
import { type FlowDefinition, uploadEnvelopeSchema } from '@novus/domain/flows/flow';
import { grupoAFlow } from '@novus/domain/flows/grupo-a';
import { ipFlow } from '@novus/domain/flows/ip';
import { lptFlow } from '@novus/domain/flows/lpt';
import { lptAgiltecFlow } from '@novus/domain/flows/lpt-agiltec';
import { posteFlow } from '@novus/domain/flows/poste';
import { FLOWS } from '@novus/domain/flows/registry';
import { unidadeFlow } from '@novus/domain/flows/unidade';
import { type LocalProjeto, NovusDatabase } from '../src/offline/db';
import { type Collection, type LatLng, type LocalColeta, RecordStore } from '../src/offline/records';
import {
  type RemoteColeta,
  SessionExpiredError,
  sha256Hex,
  SYNC_TEXTS,
  SyncEngine,
  type SyncResult,
  type SyncTransport,
  TransportError,
  type UploadFoto,
} from '../src/offline/sync';

const START = 1_790_000_000_000;
/** When the server says it stored a record: apart from the device's clock, so a mark tells whose it is. */
const SERVER_TIME = 1_800_000_000_000;

/** Units and poles only. */
const PROJETO: LocalProjeto = {
  id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
  nome: 'Curitiba',
  fluxos: ['hc', 'poste'],
  zonas: [{ _id: '0190a1b2-c3d4-7e5f-8a9b-000000000001', label: 'Zona Centro' }],
};

/** Units, poles, points (IP and Fiscalização preloaded by the back office) and LPT Agiltec, which has no zone list. */
const PROJETO_MISTO: LocalProjeto = {
  id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a6c',
  nome: 'Ponta Grossa',
  fluxos: ['hc', 'poste', 'ip', 'lpt', 'bdgd', 'fiscalizacao', 'lpt2'],
  zonas: [{ _id: '0190a1b2-c3d4-7e5f-8a9b-000000000002', label: 'Zona Norte' }],
};

/** Points the back office loaded from the project's files: their ids are the server's. */
const PONTO_IP = '0190a1b2-c3d4-7e5f-8a9b-0000000000a1';
const PONTO_FISCALIZACAO = '0190a1b2-c3d4-7e5f-8a9b-0000000000a2';
/** A record of the project's LPT Agiltec file: no position until a technician collects it. */
const REGISTRO_LPT_AGILTEC = '0190a1b2-c3d4-7e5f-8a9b-0000000000a3';

type Fault = 'request' | 'response' | 'portal' | 'expired';

const FAULT_NAMES: Record<Fault, string> = {
  request: 'a lost request',
  response: 'a lost response',
  portal: 'a captive portal',
  expired: 'an expired session',
};

/** One collection of a record as the server received it. */
interface Received {
  coletaId: string | undefined;
  fields: Record<string, string>;
  fotos: Map<number, Uint8Array>;
}

interface StoredRecord {
  flow: string;
  projeto: string;
  /** What the back office loaded from the project's file; none for a record made on a device. */
  preloaded?: { coordenadas: LatLng | null; dados: Record<string, string> };
  /** Every collection received, in order: the first is the record's value, later ones compete with it. */
  coletas: Received[];
}

const ENVELOPE_FIELDS = new Set(['id', 'coletaId', 'projeto', 'coordenadas', 'dataHora', 'precisao']);

/**
 * An in-memory server with the real one's rules: the upload is validated by the flow's schema, the same id
 * twice is one record, and a point is collected by uploading its id with a collection id — the same
 * collection again changes nothing, another one is kept as a competing collection, and both are answered
 * with the point's id.
 */
class FakeServer implements SyncTransport {
  readonly records = new Map<string, StoredRecord>();
  readonly logs: { message: string; extras: Record<string, unknown> }[] = [];
  /** The flows the devices asked for by zone or by project, in order. */
  readonly downloads: string[] = [];
  calls = 0;
  /** The call number (1-based, counting every request) at which to fail, and how. */
  fault: { at: number; kind: Fault } | undefined;

  constructor(private readonly projetos: LocalProjeto[]) {}

  preload(flow: FlowDefinition, id: string, coordenadas: LatLng | null, dados: Record<string, string>) {
    const projeto = this.projetos.find((candidate) => candidate.fluxos.includes(flow.key));
    if (!projeto) throw new Error(`no project has ${flow.key}`);
    this.records.set(id, {
      flow: flow.key,
      projeto: projeto.id,
      preloaded: { coordenadas, dados },
      coletas: [],
    });
  }

  private async step<T>(run: () => Promise<T>): Promise<T> {
    this.calls += 1;
    const fault = this.fault?.at === this.calls ? this.fault.kind : undefined;
    if (fault === 'request') throw new TransportError(0, 'Failed to fetch');
    if (fault === 'expired') throw new TransportError(401, 'Sessão expirada');
    const answer = await run();
    if (fault === 'response') throw new TransportError(0, 'Failed to fetch');
    // A captive portal answers 200 with its own page instead of ours.
    if (fault === 'portal') return { html: '<html>Faça login no Wi-Fi</html>' } as T; // any answer but ours will do
    return answer;
  }

  getProjetos() {
    return this.step(async () => structuredClone(this.projetos));
  }

  upload(flow: FlowDefinition, fields: Record<string, string>, fotos: { slot: number; blob: Blob }[]) {
    return this.step(async () => {
      const envelope = uploadEnvelopeSchema.safeParse(fields);
      if (!envelope.success) throw new TransportError(400, envelope.error.issues[0]?.message ?? 'Inválido.');
      const dados = flow.dados.safeParse(fields);
      if (!dados.success) throw new TransportError(400, dados.error.issues[0]?.message ?? 'Inválido.');
      const { id, coletaId, projeto } = envelope.data;
      const stored = this.records.get(id);
      if (stored && stored.flow !== flow.key) {
        throw new TransportError(409, 'Já existe outro registro com esse identificador.');
      }
      if (!stored?.coletas.some((coleta) => coleta.coletaId === coletaId)) {
        const received: Received = { coletaId, fields, fotos: new Map() };
        for (const foto of fotos) received.fotos.set(foto.slot, await bytesOf(foto.blob));
        if (stored) stored.coletas.push(received);
        else this.records.set(id, { flow: flow.key, projeto, coletas: [received] });
      }
      return { _id: id, sincronizadoEm: SERVER_TIME };
    });
  }

  getByZona(flow: FlowDefinition, zonaId: string) {
    this.downloads.push(flow.key);
    return this.step(async () => {
      const projetos = this.projetos.filter((projeto) => projeto.zonas.some((zona) => zona._id === zonaId));
      return [...this.records.entries()]
        .filter(([, record]) => record.flow === flow.key && projetos.some(({ id }) => id === record.projeto))
        .map(([id, record]) => remoteOf(id, record));
    });
  }

  getByProjeto(flow: FlowDefinition, projeto: Pick<LocalProjeto, 'id' | 'nome'>) {
    this.downloads.push(flow.key);
    return this.step(async () =>
      [...this.records.entries()]
        .filter(([, record]) => record.flow === flow.key && record.projeto === projeto.id)
        .map(([id, record]) => remoteOf(id, record)),
    );
  }

  async log(message: string, extras: Record<string, unknown>) {
    this.logs.push({ message, extras });
  }
}

/** A stored record as GET /api/{flow}/getByZona (or LPT Agiltec's list by project) answers it. */
function remoteOf(id: string, record: StoredRecord): RemoteColeta {
  const [current, ...competing] = record.coletas;
  const dados = Object.entries(current?.fields ?? {}).filter(([key]) => !ENVELOPE_FIELDS.has(key));
  const coordenadas: LatLng | null = current
    ? JSON.parse(current.fields.coordenadas ?? 'null')
    : (record.preloaded?.coordenadas ?? null);
  return {
    ...record.preloaded?.dados,
    ...Object.fromEntries(dados),
    _id: id,
    projeto: record.projeto,
    coordenadas,
    dataHora: current ? Number(current.fields.dataHora) : null,
    sincronizadoEm: SERVER_TIME,
    coletado: current !== undefined,
    adicionadoApp: record.preloaded === undefined,
    carregadoBackoffice: record.preloaded !== undefined,
    ...(competing.length > 0 ? { conflito: true } : {}),
    ...(record.flow === lptAgiltecFlow.key ? { possuiColeta: current !== undefined } : {}),
    fotos: [...(current?.fotos.keys() ?? [])].map((slot) => `/api/fotos/${id}/${slot}`),
  };
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

let databases = 0;

/** A technician's device: its database, its one write path, and a sync engine against the shared server. */
class Device {
  readonly db = new NovusDatabase(`Novus-sync-${(databases += 1)}`);
  readonly records: RecordStore;
  readonly statuses: string[] = [];
  /** Records the device deleted, as 'flow:id' (a deletion leaves nothing else to look at). */
  readonly deleted: string[] = [];

  constructor(
    private readonly server: FakeServer,
    now: () => number,
    private readonly tecnico = 'Maria',
  ) {
    this.records = new RecordStore(this.db, now);
    for (const flow of FLOWS) {
      this.db.table(flow.store).hook('deleting', (id) => {
        this.deleted.push(`${flow.key}:${String(id)}`);
      });
    }
  }

  sync(): Promise<SyncResult> {
    return new SyncEngine({
      db: this.db,
      records: this.records,
      transport: this.server,
      flows: FLOWS,
      tecnico: this.tecnico,
      onStatus: (text) => this.statuses.push(text),
    }).run();
  }

  /** 'Compactar Imagens' ran (it has its own tests): sync refuses uncompressed photos. */
  async compressed(flow: FlowDefinition, record: LocalColeta): Promise<LocalColeta> {
    await this.records.update(flow, { ...record, imagensCompactadas: true });
    const stored = await this.records.getByID(flow, record.id);
    if (!stored) throw new Error('record vanished');
    return stored;
  }

  async close() {
    this.db.close();
    await this.db.delete();
  }
}

type Made = Map<string, { flow: FlowDefinition; record: LocalColeta }>;

describe('SyncEngine', () => {
  let clock = START;
  let server: FakeServer;
  let device: Device;

  afterEach(async () => {
    await device.close();
  });

  async function collectUnitsAndPole(projeto: LocalProjeto, made: Made = new Map()): Promise<Made> {
    for (let i = 0; i < 2; i += 1) {
      clock += 1000;
      const unidade = await device.records.add(unidadeFlow, {
        projeto: projeto.id,
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
      made.set(unidade.id, { flow: unidadeFlow, record: await device.compressed(unidadeFlow, unidade) });
    }
    clock += 1000;
    const poste = await device.records.add(posteFlow, {
      projeto: projeto.id,
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
    made.set(poste.id, { flow: posteFlow, record: await device.compressed(posteFlow, poste) });
    return made;
  }

  /** The server holds each record once, as the device sent it, photo for photo. */
  async function expectEverythingOnServerOnce(made: Made) {
    expect([...server.records.keys()].sort()).toEqual([...made.keys()].sort());
    for (const [id, { record }] of made) {
      const coletas = server.records.get(id)?.coletas ?? [];
      expect(coletas.map((coleta) => coleta.coletaId)).toEqual([record.coletaId]);
      await expectSamePhotos(coletas[0]?.fotos, record.fotos);
    }
  }

  async function expectSamePhotos(stored: Map<number, Uint8Array> | undefined, sent: (Blob | null)[]) {
    expect([...(stored?.keys() ?? [])].sort()).toEqual(sent.flatMap((blob, slot) => (blob ? [slot] : [])));
    for (const [slot, blob] of sent.entries()) {
      if (blob) expect(stored?.get(slot)).toEqual(await bytesOf(blob));
    }
  }

  /** Whatever the server does not hold yet, the device still has pending, photos and all. */
  async function expectDeviceKeptEveryUnconfirmed(made: Made) {
    for (const [id, { flow, record }] of made) {
      const onServer = server.records.get(id)?.coletas.some((coleta) => coleta.coletaId === record.coletaId);
      if (onServer) continue;
      const local = await device.records.getByID(flow, id);
      expect(local?.sincronizadoEm).toBeUndefined();
      expect(local?.coletaId).toBe(record.coletaId);
      expect(local?.fotos.length).toBe(record.fotos.length);
      for (const [slot, blob] of record.fotos.entries()) {
        const kept = local?.fotos[slot];
        if (blob && kept) expect(await bytesOf(kept)).toEqual(await bytesOf(blob));
        else expect(kept ?? null).toBe(blob);
      }
    }
  }

  describe('units and poles', () => {
    beforeEach(() => {
      clock = START;
      server = new FakeServer([PROJETO]);
      device = new Device(server, () => clock);
    });

    it('uploads units then poles, deletes them only after the server echoed their ids, and downloads by zone', async () => {
      const made = await collectUnitsAndPole(PROJETO);
      const result = await device.sync();
      expect(result).toEqual({ ok: true, uploaded: 3, downloaded: 3 });
      expect(device.statuses).toEqual([
        SYNC_TEXTS.start,
        SYNC_TEXTS.projetos,
        'Sincronizando unidades',
        'Sincronizando postes',
        SYNC_TEXTS.done,
      ]);
      await expectEverythingOnServerOnce(made);
      expect(device.deleted.sort()).toEqual([...made].map(([id, { flow }]) => `${flow.key}:${id}`).sort());
      expect(await device.records.pending(unidadeFlow)).toEqual([]);
      expect(await device.records.pending(posteFlow)).toEqual([]);
      const downloaded = await device.records.getAll(unidadeFlow);
      expect(downloaded.map((r) => r.dados.numero).sort()).toEqual(['100', '101']);
      expect(downloaded.every((r) => r.sincronizadoEm && r.fotosUrls?.length === 3)).toBe(true);
      expect(await device.db.projeto.toArray()).toEqual([PROJETO]);
    });

    // Calls of a clean run: 1 projects, 2-3 units, 4 pole, 5-6 downloads by zone (units, poles).
    const FAULT_POINTS = [1, 2, 3, 4, 5, 6];
    const KINDS: Fault[] = ['request', 'response', 'portal'];

    for (const kind of KINDS) {
      it.each(FAULT_POINTS)(
        `${FAULT_NAMES[kind]} at call %i loses nothing, and the retry duplicates nothing`,
        async (at) => {
          const made = await collectUnitsAndPole(PROJETO);
          server.fault = { at, kind };
          const first = await device.sync();
          expect(first.ok).toBe(false);
          expect(device.statuses.at(-1)).toContain(SYNC_TEXTS.failed);
          expect(server.logs.length).toBe(1);
          await expectDeviceKeptEveryUnconfirmed(made);

          server.fault = undefined;
          device.statuses.length = 0;
          const retry = await device.sync();
          expect(retry.ok).toBe(true);
          expect(device.statuses.at(-1)).toBe(SYNC_TEXTS.done);
          await expectEverythingOnServerOnce(made);
          expect(await device.records.pending(unidadeFlow)).toEqual([]);
          expect(await device.records.pending(posteFlow)).toEqual([]);
        },
      );
    }

    it('an expired session asks for login again and keeps every record', async () => {
      const made = await collectUnitsAndPole(PROJETO);
      server.fault = { at: 3, kind: 'expired' };
      await expect(device.sync()).rejects.toBeInstanceOf(SessionExpiredError);
      await expectDeviceKeptEveryUnconfirmed(made);
      const pendingCount =
        (await device.records.pending(unidadeFlow)).length + (await device.records.pending(posteFlow)).length;
      expect(pendingCount + server.records.size).toBe(made.size);
      server.fault = undefined;
      expect((await device.sync()).ok).toBe(true);
      await expectEverythingOnServerOnce(made);
    });

    it('never overwrites a record still pending on the device with a downloaded one', async () => {
      const made = await collectUnitsAndPole(PROJETO);
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
      expect(await device.records.merge(unidadeFlow, [remote, other])).toBe(1);
      const local = await device.records.getByID(unidadeFlow, id);
      expect(local?.dados.numero).toBe(entry.record.dados.numero);
      expect(local?.sincronizadoEm).toBeUndefined();
      expect((await device.records.getByID(unidadeFlow, other._id))?.dados.numero).toBe('NOVO');
    });

    it('refuses to sync while photos are uncompressed (checked before starting)', async () => {
      await device.records.add(unidadeFlow, {
        projeto: PROJETO.id,
        dataHora: clock,
        coordenadas: { lat: -25.435, lng: -49.275 },
        fotos: [photo(1)],
        dados: { numero: '1' },
      });
      expect(await device.records.hasUncompressed(FLOWS)).toBe(true);
    });

    it('syncs a flow outside the project only while it has pending records, and never downloads it', async () => {
      clock += 1000;
      const grupoA = await device.records.add(grupoAFlow, {
        projeto: PROJETO.id,
        dataHora: clock,
        coordenadas: { lat: -25.437, lng: -49.277 },
        fotos: [],
        dados: { uc: '123456', medidor: 'M-9' },
      });
      expect(await device.sync()).toEqual({ ok: true, uploaded: 1, downloaded: 0 });
      expect(device.statuses).toEqual([
        SYNC_TEXTS.start,
        SYNC_TEXTS.projetos,
        'Sincronizando unidades',
        'Sincronizando postes',
        'Sincronizando Grupo A',
        SYNC_TEXTS.done,
      ]);
      expect(server.records.has(grupoA.id)).toBe(true);
      expect(server.downloads).toEqual(['hc', 'poste']);

      device.statuses.length = 0;
      expect((await device.sync()).ok).toBe(true);
      expect(device.statuses).not.toContain('Sincronizando Grupo A');
    });
  });

  describe('units, poles and points', () => {
    const tecnico = 'Maria';

    beforeEach(async () => {
      clock = START;
      server = new FakeServer([PROJETO_MISTO]);
      server.preload(
        ipFlow,
        PONTO_IP,
        { lat: -25.0945, lng: -50.1633 },
        { idConcessionaria: 'CEL-7731', idCircuito: 'AL-04', quantidadeCompartilhamento: '2' },
      );
      server.preload(
        fiscalizacaoFlow,
        PONTO_FISCALIZACAO,
        { lat: -25.0951, lng: -50.1642 },
        { placa: 'PG-2210', altura: '10', carga: '300' },
      );
      server.preload(lptAgiltecFlow, REGISTRO_LPT_AGILTEC, null, {
        os: '5001',
        nome: 'Maria da Silva',
        cpf: '123.456.789-00',
        telefone1: '(42) 99999-0001',
        municipio: 'Ponta Grossa',
      });
      device = new Device(server, () => clock, tecnico);
      // The morning's sync brings the back office's points to the device.
      expect((await device.sync()).ok).toBe(true);
      server.calls = 0;
      server.downloads.length = 0;
      device.statuses.length = 0;
    });

    /**
     * A day in the field: two units and a pole; the preloaded IP point collected; an LPT point drawn and
     * collected; a BDGD point drawn but not collected; the preloaded Fiscalização point collected with a
     * corrected height; a record of the LPT Agiltec file collected with an updated phone.
     */
    async function fieldDay(): Promise<{ made: Made; drawn: LocalColeta }> {
      const made = await collectUnitsAndPole(PROJETO_MISTO);
      const collect = async (flow: FlowDefinition, id: string, collection: Collection) => {
        clock += 1000;
        const record = await device.records.collect(flow, id, { tecnico, ...collection });
        made.set(record.id, { flow, record: await device.compressed(flow, record) });
        return record;
      };

      await collect(ipFlow, PONTO_IP, {
        coordenadas: { lat: -25.09452, lng: -50.16331 },
        fotos: [photo(40), photo(41), null, photo(43)],
        dados: { possuiIP: true, possuiUsoMutuo: true, quantidadeCompartilhamento: '3' },
      });

      clock += 1000;
      const lpt = await device.records.addPoint(lptFlow, PROJETO_MISTO.id, { lat: -25.096, lng: -50.165 });
      await collect(lptFlow, lpt.id, {
        coordenadas: lpt.coordenadas,
        fotos: [photo(50)],
        dados: { qtdCasas: '4' },
      });

      clock += 1000;
      const drawn = await device.records.addPoint(bdgdFlow, PROJETO_MISTO.id, { lat: -25.097, lng: -50.166 });

      await collect(fiscalizacaoFlow, PONTO_FISCALIZACAO, {
        coordenadas: { lat: -25.0951, lng: -50.1642 },
        fotos: [photo(60), photo(61)],
        dados: { correcaoAltura: '12' },
      });

      await collect(lptAgiltecFlow, REGISTRO_LPT_AGILTEC, {
        coordenadas: { lat: -25.0962, lng: -50.1651 },
        fotos: [photo(65)],
        dados: { telefoneAtualizado: '(42) 98888-1234', possuiCasa: 'Sim' },
      });
      return { made, drawn };
    }

    /** After a good sync: each record once on the server; units, poles and LPT left the device, points stay. */
    async function expectSettled(made: Made, drawn: LocalColeta) {
      await expectEverythingOnServerOnce(made);
      for (const flow of FLOWS) expect(await device.records.pending(flow)).toEqual([]);

      const uploaded = [...made].map(([id, { flow }]) => ({ id, flow }));
      expect(device.deleted.sort()).toEqual(
        uploaded
          .filter(({ flow }) => flow.deleteAfterUpload)
          .map(({ id, flow }) => `${flow.key}:${id}`)
          .sort(),
      );
      for (const { id, flow } of uploaded.filter(({ flow }) => !flow.deleteAfterUpload)) {
        expect(await device.records.getByID(flow, id)).toMatchObject({
          sincronizadoEm: expect.any(Number),
          coletado: true,
          carregadoBackoffice: true,
        });
      }

      expect(server.records.has(drawn.id)).toBe(false);
      const stillDrawn = await device.records.getByID(bdgdFlow, drawn.id);
      expect(stillDrawn).toMatchObject({ coletado: false, adicionadoApp: true });
      expect(stillDrawn?.sincronizadoEm).toBeUndefined();
    }

    it('downloads the preloaded points by zone: synchronised, not collected, not pending, not deletable', async () => {
      for (const [flow, id] of [
        [ipFlow, PONTO_IP],
        [fiscalizacaoFlow, PONTO_FISCALIZACAO],
      ] as const) {
        expect(await device.records.getByID(flow, id)).toMatchObject({
          carregadoBackoffice: true,
          adicionadoApp: false,
          coletado: false,
          sincronizadoEm: SERVER_TIME,
        });
        expect(await device.records.pending(flow)).toEqual([]);
        await expect(device.records.deleteRecord(flow, id)).rejects.toThrow('pode ser excluído');
      }
      expect((await device.records.getByID(fiscalizacaoFlow, PONTO_FISCALIZACAO))?.dados.altura).toBe('10');
    });

    it('downloads LPT Agiltec by project, as it has no zone list: the file’s records, not collected, not pending', async () => {
      expect(server.downloads).toEqual([]);
      const registro = await device.records.getByID(lptAgiltecFlow, REGISTRO_LPT_AGILTEC);
      expect(registro).toMatchObject({
        projeto: PROJETO_MISTO.id,
        carregadoBackoffice: true,
        coletado: false,
        sincronizadoEm: SERVER_TIME,
        dados: { os: '5001', nome: 'Maria da Silva', cpf: '123.456.789-00', municipio: 'Ponta Grossa' },
      });
      // possuiColeta is the server's name for coletado, not one of the record's own fields.
      expect(registro?.dados).not.toHaveProperty('possuiColeta');
      expect(await device.records.pending(lptAgiltecFlow)).toEqual([]);

      // Collected offline, then the back office re-sends the file: the pending collection is not overwritten.
      clock += 1000;
      await device.records.collect(lptAgiltecFlow, REGISTRO_LPT_AGILTEC, {
        coordenadas: { lat: -25.0962, lng: -50.1651 },
        fotos: [],
        dados: { telefoneAtualizado: '(42) 98888-1234', possuiCasa: 'Não' },
      });
      const stored = server.records.get(REGISTRO_LPT_AGILTEC);
      if (stored?.preloaded) stored.preloaded.dados.nome = 'Maria da Silva Souza';
      const remote = await server.getByProjeto(lptAgiltecFlow, PROJETO_MISTO);
      expect(await device.records.merge(lptAgiltecFlow, remote)).toBe(0);
      expect(await device.records.getByID(lptAgiltecFlow, REGISTRO_LPT_AGILTEC)).toMatchObject({
        coletado: true,
        dados: { nome: 'Maria da Silva', possuiCasa: 'Não' },
      });
      expect((await device.records.pending(lptAgiltecFlow)).map((record) => record.id)).toEqual([
        REGISTRO_LPT_AGILTEC,
      ]);
    });

    it('collecting a preloaded point keeps its id, gives it a collection id and makes it pending', async () => {
      const { made } = await fieldDay();
      const ip = made.get(PONTO_IP)?.record;
      expect(ip).toMatchObject({ id: PONTO_IP, coletado: true, carregadoBackoffice: true });
      expect(ip?.coletaId).toMatch(/^[0-9a-f-]{36}$/);
      expect(ip?.sincronizadoEm).toBeUndefined();
      expect((await device.records.pending(ipFlow)).map((record) => record.id)).toEqual([PONTO_IP]);
      expect(await device.records.pending(bdgdFlow)).toEqual([]);
    });

    it('uploads in SPEC order the flows of the project, then downloads by zone those that have a zone list, LPT Agiltec by project', async () => {
      const { made, drawn } = await fieldDay();
      expect(await device.sync()).toEqual({ ok: true, uploaded: 7, downloaded: 7 });
      expect(device.statuses).toEqual([
        'Iniciando sincronizacao...',
        'Sincronizando projetos',
        'Sincronizando unidades',
        'Sincronizando postes',
        'Sincronizando pontos',
        'Sincronizando LPT',
        'Sincronizando BDGD',
        'Sincronizando Fiscalizacao',
        'Sincronizando LPT Agiltec',
        'Sincronizacao concluida',
      ]);
      expect(server.downloads).toEqual(['hc', 'poste', 'ip', 'lpt', 'bdgd', 'fiscalizacao', 'lpt2']);
      await expectSettled(made, drawn);
      expect(server.records.get(REGISTRO_LPT_AGILTEC)?.coletas[0]?.fields).toMatchObject({
        os: '5001',
        telefoneAtualizado: '(42) 98888-1234',
        possuiCasa: 'Sim',
      });
      // Marked, not deleted: the list still shows it, now collected, with the file's data.
      expect(await device.records.getByID(lptAgiltecFlow, REGISTRO_LPT_AGILTEC)).toMatchObject({
        coletado: true,
        sincronizadoEm: SERVER_TIME,
        dados: { nome: 'Maria da Silva', possuiCasa: 'Sim' },
      });

      const fiscalizacao = server.records.get(PONTO_FISCALIZACAO)?.coletas[0]?.fields;
      expect(fiscalizacao).toMatchObject({ correcaoAltura: '12', altura: '10', placa: 'PG-2210' });
      expect(server.records.get(PONTO_IP)?.coletas[0]?.fields).toMatchObject({
        idConcessionaria: 'CEL-7731',
        possuiIP: 'true',
        quantidadeCompartilhamento: '3',
      });
      // The points on the device are now the server's: collected, with their photos there.
      expect(await device.records.getByID(ipFlow, PONTO_IP)).toMatchObject({
        coletado: true,
        sincronizadoEm: SERVER_TIME,
        fotosUrls: [0, 1, 3].map((slot) => `/api/fotos/${PONTO_IP}/${slot}`),
      });
    });

    // Calls of a clean run: 1 projects, 2-3 units, 4 pole, 5 IP, 6 LPT, 7 Fiscalização, 8 LPT Agiltec,
    // 9-14 downloads by zone (units, poles, IP, LPT, BDGD, Fiscalização), 15 LPT Agiltec by project.
    const FAULT_POINTS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
    const KINDS: Fault[] = ['request', 'response', 'portal', 'expired'];

    for (const kind of KINDS) {
      it.each(FAULT_POINTS)(
        `${FAULT_NAMES[kind]} at call %i loses nothing, and the retry duplicates nothing`,
        async (at) => {
          const { made, drawn } = await fieldDay();
          server.fault = { at, kind };
          if (kind === 'expired') {
            await expect(device.sync()).rejects.toBeInstanceOf(SessionExpiredError);
            expect(server.logs).toEqual([]);
          } else {
            expect((await device.sync()).ok).toBe(false);
            expect(device.statuses.at(-1)).toContain(SYNC_TEXTS.failed);
            expect(server.logs.length).toBe(1);
          }
          await expectDeviceKeptEveryUnconfirmed(made);

          server.fault = undefined;
          device.statuses.length = 0;
          expect((await device.sync()).ok).toBe(true);
          expect(device.statuses.at(-1)).toBe(SYNC_TEXTS.done);
          await expectSettled(made, drawn);
        },
      );
    }

    it.each([
      {
        flow: ipFlow,
        dados: { possuiIP: false },
        message: 'Falha no envio do ponto: POR FAVOR ESCOLHA UM DOS ITENS',
        tag: 'SINCRONIZACAO PONTOS',
      },
      {
        flow: lptFlow,
        dados: { qtdCasas: '0' },
        message: 'Falha no envio do LPT: Qtd. Casas deve ser um número de 1 a 99.',
        tag: 'SINCRONIZACAO LPT',
      },
    ])(
      'a refused $flow.key upload shows the flow’s prefix and the server’s message',
      async ({ flow, dados, message, tag }) => {
        clock += 1000;
        const id =
          flow === ipFlow
            ? PONTO_IP
            : (await device.records.addPoint(flow, PROJETO_MISTO.id, { lat: -25.096, lng: -50.165 })).id;
        await device.records.collect(flow, id, {
          coordenadas: { lat: -25.096, lng: -50.165 },
          fotos: [],
          dados,
        });

        const result = await device.sync();
        expect(result).toMatchObject({ ok: false, uploaded: 0, error: message });
        expect(device.statuses.at(-1)).toBe(`${message} — Ocorreu um erro na sincronizacao`);
        expect(server.logs).toEqual([{ message: tag, extras: { tecnico, erro: message } }]);
        // The technician fixes it on the device: nothing was lost.
        expect((await device.records.pending(flow)).map((record) => record.id)).toEqual([id]);
      },
    );

    it('two devices collect the same preloaded point offline: both succeed, the server keeps both collections', async () => {
      const outro = new Device(server, () => clock, 'João');
      try {
        expect((await outro.sync()).ok).toBe(true);
        expect(await outro.records.getByID(ipFlow, PONTO_IP)).toMatchObject({ carregadoBackoffice: true });

        // Both offline, both at the pole.
        clock += 60_000;
        const daMaria = await device.compressed(
          ipFlow,
          await device.records.collect(ipFlow, PONTO_IP, {
            coordenadas: { lat: -25.09452, lng: -50.16331 },
            fotos: [photo(70)],
            dados: { possuiIP: true },
            tecnico: 'Maria',
          }),
        );
        clock += 60_000;
        const doJoao = await outro.compressed(
          ipFlow,
          await outro.records.collect(ipFlow, PONTO_IP, {
            coordenadas: { lat: -25.09451, lng: -50.16332 },
            fotos: [photo(80), photo(81)],
            dados: { possuiUsoMutuo: true, quantidadeCompartilhamento: '4' },
            tecnico: 'João',
          }),
        );
        expect(daMaria.coletaId).not.toBe(doJoao.coletaId);

        expect(await device.sync()).toMatchObject({ ok: true, uploaded: 1 });
        // João's answer is lost once: his retry replays his collection, which the server already has.
        server.calls = 0;
        server.fault = { at: 2, kind: 'response' };
        expect((await outro.sync()).ok).toBe(false);
        server.fault = undefined;
        expect(await outro.sync()).toMatchObject({ ok: true, uploaded: 1 });

        for (const each of [device, outro]) {
          expect(await each.records.pending(ipFlow)).toEqual([]);
          expect((await each.records.getByID(ipFlow, PONTO_IP))?.sincronizadoEm).toBeDefined();
        }
        const coletas = server.records.get(PONTO_IP)?.coletas ?? [];
        expect(coletas.map((coleta) => coleta.coletaId)).toEqual([daMaria.coletaId, doJoao.coletaId]);
        await expectSamePhotos(coletas[0]?.fotos, daMaria.fotos);
        await expectSamePhotos(coletas[1]?.fotos, doJoao.fotos);

        // The point's value is the first collection; a device that syncs now learns another one competes with it.
        expect((await device.sync()).ok).toBe(true);
        for (const each of [device, outro]) {
          expect(await each.records.getByID(ipFlow, PONTO_IP)).toMatchObject({
            conflito: true,
            dados: { possuiIP: 'true' },
          });
        }
      } finally {
        await outro.close();
      }
    });
  });
});

/** How one upload of the link below ends: answered after `ms`, refused with a status, or with a page not ours. */
type Outcome = { ms: number; refuse?: { status: number; message: string }; portal?: boolean };

/**
 * A slow link for the uploads in flight: each upload takes its time and is counted while it lasts; nothing else
 * is slow. It says when a record was in flight twice at once and when a flow started before the previous settled.
 */
class SlowLink implements SyncTransport {
  readonly sent: string[] = [];
  readonly events: string[] = [];
  readonly logs: { message: string; extras: Record<string, unknown> }[] = [];
  readonly inFlight = new Set<string>();
  readonly twice: string[] = [];
  maxInFlight = 0;
  /** The most uploads in flight at once, by flow key. */
  readonly maxByFlow = new Map<string, number>();
  outcome: (id: string, fotos: UploadFoto[]) => Outcome = () => ({ ms: 5 });
  /** Held photos, by SHA-256; a question about them fails with status 0 when `questionFails`. */
  held = new Set<string>();
  questionFails = false;
  asked = 0;

  async getProjetos() {
    return [structuredClone(PROJETO)];
  }

  async fotosNoServidor(hashes: string[]) {
    this.asked += 1;
    if (this.questionFails) throw new TransportError(0, 'Failed to fetch');
    return new Set(hashes.filter((hash) => this.held.has(hash)));
  }

  async upload(flow: FlowDefinition, fields: Record<string, string>, fotos: UploadFoto[]) {
    const id = fields.id ?? '';
    if (this.inFlight.has(id)) this.twice.push(id);
    this.inFlight.add(id);
    this.sent.push(id);
    this.events.push(`start ${flow.key}`);
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight.size);
    this.maxByFlow.set(flow.key, Math.max(this.maxByFlow.get(flow.key) ?? 0, this.inFlight.size));
    const { ms, refuse, portal } = this.outcome(id, fotos);
    try {
      await new Promise((resolve) => setTimeout(resolve, ms));
      if (refuse) throw new TransportError(refuse.status, refuse.message);
      return portal ? { html: '<html>Wi-Fi</html>' } : { _id: id, sincronizadoEm: SERVER_TIME };
    } finally {
      this.inFlight.delete(id);
      this.events.push(`end ${flow.key}`);
    }
  }

  async getByZona() {
    return [];
  }

  async getByProjeto() {
    return [];
  }

  async log(message: string, extras: Record<string, unknown>) {
    this.logs.push({ message, extras });
  }
}

describe('SyncEngine with uploads in flight at once', () => {
  let db: NovusDatabase;
  let records: RecordStore;
  let link: SlowLink;
  let statuses: string[];
  let clock: number;

  beforeEach(() => {
    db = new NovusDatabase(`Novus-sync-${(databases += 1)}`);
    clock = START;
    records = new RecordStore(db, () => clock);
    link = new SlowLink();
    statuses = [];
  });

  afterEach(async () => {
    db.close();
    await db.delete();
  });

  const sync = (options: { concurrency?: number } = {}) =>
    new SyncEngine({
      db,
      records,
      transport: link,
      flows: FLOWS,
      tecnico: 'Maria',
      onStatus: (text) => statuses.push(text),
      ...options,
    }).run();

  /** Units then poles, oldest first: their ids in the order the sync sends them. */
  async function collect(units: number, poles = 0, fotos = 0): Promise<{ units: string[]; poles: string[] }> {
    const add = async (flow: FlowDefinition, dados: Record<string, unknown>, photos: Blob[]) => {
      clock += 1000;
      const coordenadas = { lat: -25.435, lng: -49.275 };
      return (
        await records.add(flow, { projeto: PROJETO.id, dataHora: clock, coordenadas, fotos: photos, dados })
      ).id;
    };
    const made = { units: [] as string[], poles: [] as string[] };
    for (let i = 0; i < units; i += 1) {
      const photos = Array.from({ length: fotos }, (_, slot) => photo(i * 10 + slot));
      made.units.push(await add(unidadeFlow, { tipoUnidade: 'SDU', numero: String(i) }, photos));
    }
    for (let i = 0; i < poles; i += 1)
      made.poles.push(await add(posteFlow, { tipo: 'CONCRETO DUPLO T' }, []));
    return made;
  }

  const pendingIds = async (flow: FlowDefinition) =>
    (await records.pending(flow)).map((record) => record.id).sort();

  it('sends up to three uploads at once by default, each record once, and lets every one go', async () => {
    await collect(7, 2);
    expect(await sync()).toEqual({ ok: true, uploaded: 9, downloaded: 0 });
    expect(link.maxByFlow.get('hc')).toBe(3);
    expect(link.sent).toHaveLength(9);
    expect(new Set(link.sent).size).toBe(9);
    expect(link.twice).toEqual([]);
    expect(await pendingIds(unidadeFlow)).toEqual([]);
    expect(await pendingIds(posteFlow)).toEqual([]);
  });

  it('starts the uploads oldest first and keeps up to N in flight as each one settles', async () => {
    const { units } = await collect(6);
    // The first record is slow: the others flow past it on the two other lanes.
    link.outcome = (id) => ({ ms: id === units[0] ? 40 : 5 });
    expect((await sync({ concurrency: 3 })).ok).toBe(true);
    expect(link.sent.slice(0, 3)).toEqual(units.slice(0, 3));
    expect([...link.sent].sort()).toEqual([...units].sort());
    expect(link.maxInFlight).toBe(3);
  });

  it('takes the number of uploads in flight from the option (1: one after another)', async () => {
    await collect(5);
    expect((await sync({ concurrency: 1 })).ok).toBe(true);
    expect(link.maxInFlight).toBe(1);
    expect(link.sent).toHaveLength(5);
  });

  it('keeps the flows in order: no pole starts before every unit settled', async () => {
    await collect(5, 3);
    // The last unit is the slowest: the poles must still wait for it.
    link.outcome = (id) => ({ ms: link.sent.length === 5 && link.sent.at(-1) === id ? 30 : 3 });
    expect((await sync()).ok).toBe(true);
    const firstPole = link.events.indexOf('start poste');
    const lastUnit = link.events.lastIndexOf('end hc');
    expect(firstPole).toBeGreaterThan(lastUnit);
    expect(link.maxByFlow.get('hc')).toBe(3);
    expect(link.maxByFlow.get('poste')).toBe(3);
    expect(statuses).toEqual([
      SYNC_TEXTS.start,
      SYNC_TEXTS.projetos,
      'Sincronizando unidades',
      'Sincronizando postes',
      SYNC_TEXTS.done,
    ]);
  });

  it('a refused record ends the sync as before: its status and log, nothing after it sent, nothing unconfirmed let go', async () => {
    const { units, poles } = await collect(6, 2);
    const refused = units[1];
    const portal = units[2];
    link.outcome = (id) => {
      if (id === refused) return { ms: 2, refuse: { status: 400, message: 'Número inválido.' } };
      if (id === portal) return { ms: 10, portal: true };
      return { ms: 10 };
    };
    const message = 'Falha no envio da unidade: Número inválido.';
    expect(await sync()).toEqual({ ok: false, uploaded: 0, downloaded: 0, error: message });
    expect(statuses.at(-1)).toBe(`${message} — ${SYNC_TEXTS.failed}`);
    expect(link.logs).toEqual([
      { message: 'SINCRONIZACAO UNIDADES', extras: { tecnico: 'Maria', erro: message } },
    ]);
    // Only the three in flight when it failed were ever sent; the ones after, and the poles, were not.
    expect(link.sent).toEqual(units.slice(0, 3));
    expect(link.inFlight.size).toBe(0);
    // The refused record and the one a portal answered stay, as do those never sent; the one the server echoed went.
    expect(await pendingIds(unidadeFlow)).toEqual([...units.slice(1)].sort());
    expect(await pendingIds(posteFlow)).toEqual([...poles].sort());
  });

  it('reports the failure of the earliest record, whichever failed first', async () => {
    const { units } = await collect(4);
    link.outcome = (id) => {
      if (id === units[0]) return { ms: 20, refuse: { status: 400, message: 'primeira' } };
      if (id === units[2]) return { ms: 1, refuse: { status: 400, message: 'terceira' } };
      return { ms: 5 };
    };
    expect(await sync()).toMatchObject({ ok: false, error: 'Falha no envio da unidade: primeira' });
    expect(link.logs).toHaveLength(1);
    expect(await pendingIds(unidadeFlow)).toEqual([units[0], units[2], units[3]].sort());
  });

  it('an expired session among the uploads in flight ends the sync with SessionExpiredError, after they settled', async () => {
    const { units } = await collect(5);
    link.outcome = (id) => {
      if (id === units[0]) return { ms: 20, refuse: { status: 400, message: 'recusada' } };
      if (id === units[1]) return { ms: 2, refuse: { status: 401, message: 'Sessão expirada' } };
      return { ms: 10 };
    };
    await expect(sync()).rejects.toBeInstanceOf(SessionExpiredError);
    expect(link.inFlight.size).toBe(0);
    expect(link.logs).toEqual([]);
    expect(link.sent).toEqual(units.slice(0, 3));
    expect(await pendingIds(unidadeFlow)).toEqual([...units.slice(0, 2), ...units.slice(3)].sort());
  });

  it('sends named photos the server refuses again with their bytes, never twice at once', async () => {
    const { units } = await collect(4, 0, 2);
    for (const record of await records.pending(unidadeFlow)) {
      for (const blob of record.fotos) if (blob) link.held.add(await sha256Hex(blob));
    }
    const gone = units[1];
    link.outcome = (id, fotos) =>
      id === gone && fotos.some((foto) => 'hash' in foto)
        ? { ms: 5, refuse: { status: 400, message: 'Foto não encontrada.' } }
        : { ms: 5 };
    expect((await sync()).ok).toBe(true);
    expect(link.sent.filter((id) => id === gone)).toHaveLength(2);
    expect(link.sent).toHaveLength(5);
    expect(link.twice).toEqual([]);
    expect(await pendingIds(unidadeFlow)).toEqual([]);
  });

  it('after a transport failure it survives, sends one at a time for the rest of that sync', async () => {
    await collect(6, 3, 1);
    link.questionFails = true;
    expect((await sync()).ok).toBe(true);
    expect(link.maxByFlow.get('hc')).toBe(1);
    expect(link.maxByFlow.get('poste')).toBe(1);

    // The next sync starts again at three.
    link.questionFails = false;
    link.maxByFlow.clear();
    await collect(6);
    expect((await sync()).ok).toBe(true);
    expect(link.maxByFlow.get('hc')).toBe(3);
  });
});
