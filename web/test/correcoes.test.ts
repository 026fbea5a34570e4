// Corrections sent back to the phone (issue 24): the sync stores each rejected record with the reviewer's word,
// never over a record pending on the device, clears those no longer asked for, and sends the technician's fix as
// the next revision of the same id, naming the server's photos it keeps by hash; a replay is one revision.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CorrecaoRemota } from '@novus/domain/api/revisao';
import { type FlowDefinition, uploadEnvelopeSchema } from '@novus/domain/flows/flow';
import { ipFlow } from '@novus/domain/flows/ip';
import { posteFlow } from '@novus/domain/flows/poste';
import { FLOWS } from '@novus/domain/flows/registry';
import { unidadeFlow } from '@novus/domain/flows/unidade';
import { saveRecord } from '../src/collect/shared/save-record';
import { type LocalProjeto, NovusDatabase } from '../src/offline/db';
import { isPending, type LocalColeta, RecordStore } from '../src/offline/records';
import {
  type RemoteColeta,
  sha256Hex,
  SyncEngine,
  type SyncTransport,
  TransportError,
  type UploadFoto,
  uploadFields,
} from '../src/offline/sync';

const START = 1_790_000_000_000;
const REJEITADO_EM = 1_790_000_500_000;
const PROJETO: LocalProjeto = {
  id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
  nome: 'Curitiba',
  fluxos: ['hc', 'ip'],
  zonas: [{ _id: '0190a1b2-c3d4-7e5f-8a9b-000000000001', label: 'Zona Centro' }],
};
const UNIDADE = '0190a1b2-c3d4-7e5f-8a9b-0000000000b1';
const PONTO_IP = '0190a1b2-c3d4-7e5f-8a9b-0000000000a1';
const AQUI = { lat: -25.435, lng: -49.275 };

function photo(seed: number): Blob {
  return new Blob([new Uint8Array([0xff, 0xd8, 0xff, seed, seed])], { type: 'image/jpeg' });
}

/** The bytes the server holds for each photo URL, so a fetched copy can be compared. */
const SERVER_FOTOS = new Map<string, Blob>([
  [`/api/fotos/${UNIDADE}/0`, photo(1)],
  [`/api/fotos/${UNIDADE}/1`, photo(2)],
  [`/api/fotos/${PONTO_IP}/0`, photo(3)],
]);

async function fotoRef(url: string, slot: number) {
  const blob = SERVER_FOTOS.get(url);
  if (!blob) throw new Error(`no photo ${url}`);
  return { slot, hash: await sha256Hex(blob), url };
}

async function correcaoUnidade(): Promise<CorrecaoRemota> {
  return {
    fluxo: 'hc',
    registro: {
      _id: UNIDADE,
      projeto: PROJETO.id,
      coordenadas: AQUI,
      dataHora: START,
      sincronizadoEm: START + 1000,
      fotos: [`/api/fotos/${UNIDADE}/0`, `/api/fotos/${UNIDADE}/1`],
      tecnico: 'Maria',
      versao: 1,
      revisao: 'reprovado',
      tipoUnidade: 'SDU',
      tipoEdificacao: 'Residencial',
      tipoImovel: 'RESIDENCIAL',
      numero: '45',
      quantidade: '1',
    },
    fotos: [await fotoRef(`/api/fotos/${UNIDADE}/0`, 0), await fotoRef(`/api/fotos/${UNIDADE}/1`, 1)],
    revisao: {
      versao: 1,
      comentario: 'O número da fachada é outro.',
      campos: { numero: 'Na foto a fachada diz 54.' },
      revisor: 'Ana Supervisora',
      em: REJEITADO_EM,
    },
  };
}

async function correcaoIp(): Promise<CorrecaoRemota> {
  return {
    fluxo: 'ip',
    registro: {
      _id: PONTO_IP,
      projeto: PROJETO.id,
      coordenadas: AQUI,
      dataHora: START,
      sincronizadoEm: START + 1000,
      fotos: [`/api/fotos/${PONTO_IP}/0`],
      coletado: true,
      adicionadoApp: false,
      carregadoBackoffice: true,
      versao: 2,
      revisao: 'reprovado',
      idConcessionaria: 'CEL-7731',
    },
    fotos: [await fotoRef(`/api/fotos/${PONTO_IP}/0`, 0)],
    revisao: { versao: 2, comentario: 'Foto sem a luminária.', campos: {}, revisor: null, em: REJEITADO_EM },
  };
}

interface Upload {
  flow: string;
  fields: Record<string, string>;
  fotos: UploadFoto[];
}

/** The server's side of corrections: the list it answers, and each revision received once per (id, versao). */
class FakeServer implements SyncTransport {
  correcoes: CorrecaoRemota[] = [];
  readonly uploads: Upload[] = [];
  /** Revisions stored, as 'id@versao'. */
  readonly revisoes = new Set<string>();
  readonly zona: RemoteColeta[] = [];
  fotosFetched = 0;
  /** How GET /api/correcoes fails, if it does. */
  correcoesFault: TransportError | undefined;
  /** The next upload's answer is lost after the server stored it. */
  loseNextAnswer = false;

  async getProjetos() {
    return [structuredClone(PROJETO)];
  }

  async upload(flow: FlowDefinition, fields: Record<string, string>, fotos: UploadFoto[]) {
    const envelope = uploadEnvelopeSchema.parse(fields);
    const key = `${envelope.id}@${envelope.versao ?? 1}`;
    if (!this.revisoes.has(key)) {
      this.revisoes.add(key);
      this.uploads.push({ flow: flow.key, fields, fotos });
      // The rejected revision is corrected: no longer listed.
      this.correcoes = this.correcoes.filter(
        (correcao) =>
          correcao.registro._id !== envelope.id || correcao.revisao.versao >= (envelope.versao ?? 1),
      );
    }
    if (this.loseNextAnswer) {
      this.loseNextAnswer = false;
      throw new TransportError(0, 'Failed to fetch');
    }
    return { _id: envelope.id };
  }

  async getByZona(flow: FlowDefinition) {
    return this.zona.filter((record) =>
      flow.key === 'ip' ? record._id === PONTO_IP : record._id === UNIDADE,
    );
  }

  async getByProjeto() {
    return [];
  }

  async log() {}

  async getCorrecoes() {
    if (this.correcoesFault) throw this.correcoesFault;
    return structuredClone(this.correcoes);
  }

  async getFoto(url: string) {
    this.fotosFetched += 1;
    const blob = SERVER_FOTOS.get(url);
    if (!blob) throw new TransportError(404, 'Foto não encontrada.');
    return blob;
  }
}

const bytes = async (blob: Blob | undefined) => (blob ? [...new Uint8Array(await blob.arrayBuffer())] : null);

let databases = 0;

describe('corrections on the phone', () => {
  let db: NovusDatabase;
  let records: RecordStore;
  let server: FakeServer;
  let clock = START;

  const sync = () =>
    new SyncEngine({
      db,
      records,
      transport: server,
      flows: FLOWS,
      tecnico: 'Maria',
      now: () => clock,
    }).run();

  /** What the technician does in the record's form: number fixed, photo 1 replaced, photo 2 kept. */
  async function fixUnidade(): Promise<LocalColeta> {
    clock += 60_000;
    return records.correct(unidadeFlow, UNIDADE, {
      coordenadas: AQUI,
      fotos: [photo(9), null, null],
      imagensCompactadas: true,
      fotosServidor: (await records.getByID(unidadeFlow, UNIDADE))?.fotosServidor ?? [],
      tecnico: 'Maria',
      dados: { numero: '54' },
    });
  }

  beforeEach(() => {
    clock = START + 10_000;
    db = new NovusDatabase(`Novus-correcoes-${(databases += 1)}`);
    records = new RecordStore(db, () => clock);
    server = new FakeServer();
  });
  afterEach(async () => {
    db.close();
    await db.delete();
  });

  it('stores each correction with the reviewer’s word and its server photos, not pending', async () => {
    server.correcoes = [await correcaoUnidade(), await correcaoIp()];
    expect((await sync()).ok).toBe(true);

    const unidade = await records.getByID(unidadeFlow, UNIDADE);
    expect(unidade?.correcao).toEqual({
      versao: 1,
      comentario: 'O número da fachada é outro.',
      campos: { numero: 'Na foto a fachada diz 54.' },
      revisor: 'Ana Supervisora',
      em: REJEITADO_EM,
    });
    expect(unidade?.versao).toBe(1);
    expect(unidade?.dados.numero).toBe('45');
    // the review state and revision are not the flow's fields: never sent back as such
    expect(unidade?.dados).not.toHaveProperty('versao');
    expect(unidade?.dados).not.toHaveProperty('revisao');
    expect(unidade?.fotosServidor?.map(({ slot, url }) => ({ slot, url }))).toEqual([
      { slot: 0, url: `/api/fotos/${UNIDADE}/0` },
      { slot: 1, url: `/api/fotos/${UNIDADE}/1` },
    ]);
    expect(await bytes(unidade?.fotosServidor?.[1]?.blob)).toEqual(
      await bytes(SERVER_FOTOS.get(`/api/fotos/${UNIDADE}/1`)),
    );
    expect(unidade && isPending(unidadeFlow, unidade)).toBe(false);
    expect(await records.pending(unidadeFlow)).toEqual([]);

    const ponto = await records.getByID(ipFlow, PONTO_IP);
    expect(ponto?.correcao?.versao).toBe(2);
    expect(ponto?.carregadoBackoffice).toBe(true);
    expect(await records.pending(ipFlow)).toEqual([]);
    expect(server.uploads).toEqual([]);

    // Again: nothing changes, and photos already on the device are not fetched again.
    const fetched = server.fotosFetched;
    expect((await sync()).ok).toBe(true);
    expect(server.fotosFetched).toBe(fetched);
    expect((await records.correcoes(unidadeFlow)).length).toBe(1);
  });

  it('never overwrites a record pending on the device', async () => {
    server.correcoes = [await correcaoUnidade()];
    await sync();
    await fixUnidade();
    // the device's fix is pending; the server's list still shows the rejected revision (a sync cut before upload)
    expect(await records.storeCorrecao(unidadeFlow, await correcaoUnidade())).toBe(false);
    expect(await records.clearCorrecoes(unidadeFlow, new Set())).toBe(0);
    const local = await records.getByID(unidadeFlow, UNIDADE);
    expect(local?.dados.numero).toBe('54');
    expect(local?.versao).toBe(2);
    expect(local && isPending(unidadeFlow, local)).toBe(true);
  });

  it('keeps a correction over the zone download, which brings the rejected record too', async () => {
    const correcao = await correcaoUnidade();
    server.correcoes = [correcao];
    server.zona.push({ ...(correcao.registro as RemoteColeta) });
    await sync();
    expect((await records.getByID(unidadeFlow, UNIDADE))?.correcao?.versao).toBe(1);
  });

  it('clears corrections no longer listed: a unit leaves the device, a point stays without the reviewer’s word', async () => {
    server.correcoes = [await correcaoUnidade(), await correcaoIp()];
    await sync();
    server.correcoes = []; // approved since
    expect((await sync()).ok).toBe(true);
    expect(await records.getByID(unidadeFlow, UNIDADE)).toBeUndefined();
    const ponto = await records.getByID(ipFlow, PONTO_IP);
    expect(ponto?.correcao).toBeUndefined();
    expect(ponto?.fotosServidor).toBeUndefined();
    expect(ponto?.sincronizadoEm).toBeDefined();
  });

  it('sends the fix as the next revision, naming the kept server photo by hash, then lets the unit go', async () => {
    const correcao = await correcaoUnidade();
    server.correcoes = [correcao];
    await sync();
    const fixed = await fixUnidade();
    expect(fixed.versao).toBe(2);
    expect(uploadFields(fixed).versao).toBe('2');

    const result = await sync();
    expect(result.ok).toBe(true);
    expect(result.uploaded).toBe(1);
    const [sent] = server.uploads;
    expect(sent?.fields).toMatchObject({ id: UNIDADE, versao: '2', numero: '54' });
    expect(sent?.fields).not.toHaveProperty('revisao');
    expect(
      sent?.fotos.map((foto) => ('hash' in foto ? { slot: foto.slot, hash: foto.hash } : foto.slot)),
    ).toEqual([0, { slot: 1, hash: correcao.fotos[1]?.hash }]);
    expect(await records.getByID(unidadeFlow, UNIDADE)).toBeUndefined();
    expect(server.revisoes).toEqual(new Set([`${UNIDADE}@2`]));
  });

  it('a preloaded point comes back the same way and is marked synced with its correction cleared', async () => {
    server.correcoes = [await correcaoIp()];
    await sync();
    clock += 60_000;
    const ponto = await records.getByID(ipFlow, PONTO_IP);
    await records.correct(ipFlow, PONTO_IP, {
      coordenadas: AQUI,
      fotos: [null],
      imagensCompactadas: true,
      fotosServidor: ponto?.fotosServidor ?? [],
      dados: { observacao: 'Luminária na foto' },
    });
    expect((await sync()).ok).toBe(true);
    const [sent] = server.uploads;
    expect(sent?.fields).toMatchObject({ id: PONTO_IP, versao: '3' });
    expect(sent?.fields.coletaId).toBeDefined();
    expect(sent?.fotos).toEqual([{ slot: 0, hash: ponto?.fotosServidor?.[0]?.hash }]);
    const after = await records.getByID(ipFlow, PONTO_IP);
    expect(after?.sincronizadoEm).toBe(clock);
    expect(after?.correcao).toBeUndefined();
    expect(after?.versao).toBe(3);
    // a later collection of the point is not a revision
    expect(after && uploadFields(after)).not.toHaveProperty('versao');
  });

  it('a replayed revision after a lost answer is one revision on the server', async () => {
    server.correcoes = [await correcaoUnidade()];
    await sync();
    await fixUnidade();
    server.loseNextAnswer = true;
    expect((await sync()).ok).toBe(false);
    // the device kept the fix, pending
    const kept = await records.getByID(unidadeFlow, UNIDADE);
    expect(kept && isPending(unidadeFlow, kept)).toBe(true);
    expect((await sync()).ok).toBe(true);
    expect(server.uploads.length).toBe(1);
    expect(server.revisoes).toEqual(new Set([`${UNIDADE}@2`]));
    expect(await records.getByID(unidadeFlow, UNIDADE)).toBeUndefined();
  });

  it('Gravar on a correction saves the next revision for any flow, a pole too, keeping the server photos not replaced', async () => {
    const poste = '0190a1b2-c3d4-7e5f-8a9b-0000000000c1';
    const url = `/api/fotos/${poste}/1`;
    SERVER_FOTOS.set(url, photo(7));
    const dados = {
      tipo: 'CONCRETO DUPLO T',
      altura: '11',
      carga: '300',
      tipoRedeEletrica: 'MISTA',
      aterramento: true,
      equipamentoRedeEnergia: 'NAO POSSUI',
    };
    server.correcoes = [
      {
        fluxo: 'poste',
        registro: {
          _id: poste,
          projeto: PROJETO.id,
          coordenadas: AQUI,
          dataHora: START,
          fotos: [url],
          ...dados,
        },
        fotos: [await fotoRef(url, 1)],
        revisao: {
          versao: 1,
          comentario: 'Altura errada.',
          campos: { altura: 'É 12.' },
          revisor: 'Ana',
          em: 1,
        },
      },
    ];
    await sync();
    const stored = await records.getByID(posteFlow, poste);
    if (!stored) throw new Error('the correction was not stored');
    clock += 1000;
    const saved = await saveRecord({
      records,
      flow: posteFlow,
      projeto: { id: PROJETO.id },
      editing: stored,
      point: AQUI,
      fotos: [null, null, null],
      fotosServidor: stored.fotosServidor,
      tecnico: 'Maria',
      values: { ...dados, altura: '12' },
    });
    expect(saved).toMatchObject({ versao: 2, imagensCompactadas: true, dados: { altura: '12' } });
    expect(saved.sincronizadoEm).toBeUndefined();
    expect(saved.fotosServidor?.map((foto) => foto.slot)).toEqual([1]);
    expect(await records.pending(posteFlow)).toHaveLength(1);
  });

  it('an older server (404) or a role without corrections (403) has none and clears none; a network failure fails the sync', async () => {
    server.correcoes = [await correcaoUnidade()];
    await sync();
    server.correcoes = [];
    server.correcoesFault = new TransportError(404, 'Not Found');
    expect((await sync()).ok).toBe(true);
    expect((await records.getByID(unidadeFlow, UNIDADE))?.correcao).toBeDefined();

    // An administrador syncing a device: the server keeps corrections for technicians only (403).
    server.correcoesFault = new TransportError(403, 'Usuario nao tem permissao para esse recurso');
    expect((await sync()).ok).toBe(true);
    expect((await records.getByID(unidadeFlow, UNIDADE))?.correcao).toBeDefined();

    server.correcoesFault = new TransportError(0, 'Failed to fetch');
    const result = await sync();
    expect(result.ok).toBe(false);
    expect((await records.getByID(unidadeFlow, UNIDADE))?.correcao).toBeDefined();
  });
});
