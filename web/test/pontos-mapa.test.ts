// The map's points kept compact beside the records (issue 41): written by the first sync, kept current by every write
// of the record store, built again from the records when missing or when a write was cut between the two databases,
// and marked by each flow exactly as its records are.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bdgdFlow } from '@novus/domain/flows/bdgd';
import { ipFlow } from '@novus/domain/flows/ip';
import { posteFlow } from '@novus/domain/flows/poste';
import { FLOWS } from '@novus/domain/flows/registry';
import { BDGD_ATIVOS } from '@novus/domain/geo/point-columns';
import { FLOW_UI } from '../src/collect/flows';
import { mapPointsOf } from '../src/collect/shared/hooks';
import { NovusDatabase } from '../src/offline/db';
import {
  aplicarMudancas,
  estadoOf,
  type PontosDoMapa,
  pontosDe,
  registroDoEstado,
} from '../src/offline/pontos-mapa';
import { type LocalColeta, RecordStore, type RemoteColeta } from '../src/offline/records';

const START = 1_790_000_000_000;
const PROJETO = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const OUTRO = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c';

function preloaded(index: number, changes: Partial<RemoteColeta> = {}): RemoteColeta {
  return {
    _id: `0190a1b2-c3d4-7e5f-8a9b-${String(index).padStart(12, '0')}`,
    projeto: PROJETO,
    coordenadas: { lat: -25.435 + index / 1e5, lng: -49.275 - index / 1e5 },
    dataHora: null,
    sincronizadoEm: START - 86_400_000,
    fotos: [],
    coletado: false,
    adicionadoApp: false,
    carregadoBackoffice: true,
    idConcessionaria: `IP-${index}`,
    ...changes,
  };
}

/** What the row says of each point: its id, where it is, and its state. */
function pointsOf(row: PontosDoMapa) {
  return row.ids.map((id, i) => ({
    id,
    lat: row.lats[i],
    lng: row.lngs[i],
    estado: row.estados[row.estadoDe[i] ?? -1],
  }));
}

let databases = 0;

describe('the map points kept beside the records', () => {
  let db: NovusDatabase;
  let records: RecordStore;
  const clock = START;

  beforeEach(() => {
    db = new NovusDatabase(`Novus-pontos-${(databases += 1)}`);
    records = new RecordStore(db, () => clock);
  });
  afterEach(async () => {
    records.mapa.close();
    await records.mapa.db.delete();
    db.close();
    await db.delete();
  });

  /** The row as it would be built from the records on the device now. */
  async function fromRecords(flow: typeof ipFlow, projeto = PROJETO) {
    return pointsOf(pontosDe(flow, projeto, await records.byProjeto(flow, projeto)));
  }

  it("is written by the first sync's download, without reading the records back", async () => {
    await records.merge(ipFlow, [preloaded(1), preloaded(2), preloaded(3, { projeto: OUTRO })]);
    const kept = await records.mapa.db.pontos.get([ipFlow.key, PROJETO]);
    expect(kept && pointsOf(kept)).toEqual(await fromRecords(ipFlow));
    expect(kept?.ids).toHaveLength(2);
    const outro = await records.mapa.ler(ipFlow, OUTRO);
    expect(outro.ids).toEqual([preloaded(3)._id]);
  });

  it('follows every write: a point collected, drawn, deleted, synchronised, and downloaded again', async () => {
    await records.merge(ipFlow, [preloaded(1), preloaded(2)]);
    const drawn = await records.addPoint(ipFlow, PROJETO, { lat: -25.44, lng: -49.27 });
    await records.collect(ipFlow, preloaded(1)._id, {
      coordenadas: { lat: -25.4351, lng: -49.2751 },
      fotos: [],
      dados: { possuiIP: true },
    });
    let row = await records.mapa.ler(ipFlow, PROJETO);
    expect(pointsOf(row)).toEqual(await fromRecords(ipFlow));
    expect(pointsOf(row).map(({ estado }) => estado?.coletado)).toEqual([true, false, false]);

    await records.deleteRecord(ipFlow, drawn.id);
    const [collected] = await records.pending(ipFlow);
    if (!collected) throw new Error('the collected point is pending');
    await records.confirmUploaded(ipFlow, collected);
    await records.merge(ipFlow, [preloaded(4)]);
    row = await records.mapa.ler(ipFlow, PROJETO);
    expect(pointsOf(row)).toEqual(await fromRecords(ipFlow));
    expect(row.ids).toEqual([preloaded(1)._id, preloaded(2)._id, preloaded(4)._id]);
    expect(pointsOf(row)[0]?.estado).toMatchObject({ coletado: true, sincronizado: true });
  });

  it('lets a pole go with its record once the server has it', async () => {
    const poste = await records.add(posteFlow, {
      projeto: PROJETO,
      dataHora: START,
      coordenadas: { lat: -25.43, lng: -49.27 },
      fotos: [],
      dados: { tipo: 'MADEIRA' },
    });
    expect((await records.mapa.ler(posteFlow, PROJETO)).ids).toEqual([poste.id]);
    await records.confirmUploaded(posteFlow, poste);
    expect((await records.mapa.ler(posteFlow, PROJETO)).ids).toEqual([]);
  });

  it('is built from the records on a device that held them before it was kept (an update of the app)', async () => {
    await db.table('ip').bulkPut([preloaded(1), preloaded(2)].map((remote) => asLocal(remote)));
    await records.mapa.garantir(ipFlow, [PROJETO]);
    const kept = await records.mapa.db.pontos.get([ipFlow.key, PROJETO]);
    expect(kept && pointsOf(kept)).toEqual(await fromRecords(ipFlow));
    expect(kept?.ids).toHaveLength(2);
  });

  it('is built again from the records when a write of another page was cut before its row was patched', async () => {
    await records.merge(ipFlow, [preloaded(1)]);
    // Another page wrote a record and closed before patching the row: its mark stayed.
    await db.table('ip').put(asLocal(preloaded(2)));
    await records.mapa.db.escritas.add({ fluxo: ipFlow.key, sessao: 'outra', em: clock - 120_000 });
    const row = await records.mapa.ler(ipFlow, PROJETO);
    expect(row.ids).toEqual([preloaded(1)._id, preloaded(2)._id]);
    expect(await records.mapa.db.escritas.count()).toBe(0);
  });

  it('is built again when it does not count as many points as the project has records', async () => {
    await records.merge(ipFlow, [preloaded(1), preloaded(2)]);
    await db.table('ip').delete(preloaded(2)._id);
    expect((await records.mapa.ler(ipFlow, PROJETO)).ids).toEqual([preloaded(1)._id]);
  });

  it("asks for a write's mark beside the write, not before it, and reports the write once the mark is stored", async () => {
    const order: string[] = [];
    const { escritas } = records.mapa.db;
    const add = escritas.add.bind(escritas);
    escritas.add = (async (...args: Parameters<typeof add>) => {
      order.push('mark asked');
      const id = await add(...args);
      order.push('mark stored');
      return id;
    }) as typeof add;
    await records.mapa.escrevendo(ipFlow, async () => {
      order.push('write started');
      await Promise.resolve();
    });
    order.push('reported');
    expect(order).toEqual(['mark asked', 'write started', 'mark stored', 'reported']);
  });

  it('leaves no mark of its own writes behind', async () => {
    await records.merge(ipFlow, [preloaded(1)]);
    await records.collect(ipFlow, preloaded(1)._id, { coordenadas: { lat: 1, lng: 2 }, fotos: [], dados: {} });
    // the save does not wait for the map's row; the row is patched right after
    await records.mapa.emDia();
    expect(await records.mapa.db.escritas.count()).toBe(0);
  });
});

function asLocal(remote: RemoteColeta): LocalColeta {
  const { _id, coordenadas, dataHora, sincronizadoEm, fotos, idConcessionaria, ...flags } = remote;
  return {
    id: _id,
    projeto: remote.projeto,
    dataHora: dataHora ?? 0,
    coordenadas: coordenadas ?? { lat: 0, lng: 0 },
    fotos: [],
    fotosUrls: fotos,
    imagensCompactadas: true,
    ...(sincronizadoEm ? { sincronizadoEm } : {}),
    coletado: flags.coletado === true,
    adicionadoApp: flags.adicionadoApp === true,
    carregadoBackoffice: flags.carregadoBackoffice === true,
    dados: { idConcessionaria },
  };
}

describe('a row changed in place', () => {
  const record = (id: string, lat: number, coletado = false): LocalColeta => ({
    id,
    projeto: PROJETO,
    dataHora: 0,
    coordenadas: { lat, lng: -49 },
    fotos: [],
    imagensCompactadas: true,
    coletado,
    dados: {},
  });

  it('keeps the order, moves and re-marks the points written, appends new ones and drops the removed', () => {
    const row = pontosDe(ipFlow, PROJETO, [record('a', 1), record('b', 2), record('c', 3)]);
    const changed = aplicarMudancas(row, [record('b', 2.5, true), record('d', 4)], new Set(['a']));
    expect(changed.ids).toEqual(['b', 'c', 'd']);
    expect(Array.from(changed.lats)).toEqual([2.5, 3, 4]);
    expect(changed.estados[changed.estadoDe[0] ?? -1]?.coletado).toBe(true);
    expect(changed.estados[changed.estadoDe[1] ?? -1]?.coletado).toBe(false);
  });
});

describe("each flow's marker", () => {
  const flags = [
    {},
    { coletado: false, adicionadoApp: true, carregadoBackoffice: false },
    { coletado: true, carregadoBackoffice: true },
    { coletado: true, carregadoBackoffice: false, sincronizadoEm: START },
    { sincronizadoEm: START },
  ];
  const values = ['', 'x', 'SIM', true, false, 3, ...BDGD_ATIVOS];

  it('marks a point from its kept state exactly as it marks its record', () => {
    for (const flow of FLOWS) {
      const ui = FLOW_UI[flow.key];
      const campos = Object.keys(ui.initialValues());
      for (const flag of flags) {
        for (const [n, value] of values.entries()) {
          // Every field of the form takes each value in turn, the others a neighbour's: a marker reading any of
          // them differently from what is kept shows here.
          const dados = Object.fromEntries(
            campos.map((campo, i) => [campo, values[(n + i) % values.length] ?? value]),
          );
          const record: LocalColeta = {
            id: 'r',
            projeto: PROJETO,
            dataHora: START,
            coordenadas: { lat: -25, lng: -49 },
            fotos: [],
            imagensCompactadas: true,
            ...flag,
            dados,
          };
          expect(ui.marker(registroDoEstado(estadoOf(flow, record))), flow.key).toEqual(ui.marker(record));
        }
      }
    }
  });

  it("draws the row's points with them (BDGD by its asset type, hollow until collected)", () => {
    const row = pontosDe(bdgdFlow, PROJETO, [
      {
        id: 'a',
        projeto: PROJETO,
        dataHora: 0,
        coordenadas: { lat: -25, lng: -49 },
        fotos: [],
        imagensCompactadas: true,
        coletado: false,
        dados: { ativo: 'Chave', idConcessionaria: 'BD-1' },
      },
    ]);
    expect(mapPointsOf(row, FLOW_UI.bdgd, 'BDGD')).toEqual([
      {
        id: 'a',
        lat: -25,
        lng: -49,
        label: 'BDGD',
        color: '#ef6c00',
        hollow: true,
        kind: 'mapa-bdgd mapa-nao-coletado',
      },
    ]);
  });
});
