// The device's one write path: what is pending, what may be deleted, what a download may overwrite, and when
// an upload lets go of a record (SPEC.md section 4).
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bdgdFlow } from '@novus/domain/flows/bdgd';
import { ipFlow } from '@novus/domain/flows/ip';
import { posteFlow } from '@novus/domain/flows/poste';
import { unidadeFlow } from '@novus/domain/flows/unidade';
import { NovusDatabase } from '../src/offline/db';
import {
  DeleteRefusedError,
  isPending,
  type LocalColeta,
  RecordStore,
  type RemoteColeta,
} from '../src/offline/records';

const START = 1_790_000_000_000;
const PROJETO = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
/** A point the back office loaded from the project's IP file: its id is the server's. */
const PONTO_IP = '0190a1b2-c3d4-7e5f-8a9b-0000000000a1';
const AQUI = { lat: -25.435, lng: -49.275 };

function preloadedIp(changes: Partial<RemoteColeta> = {}): RemoteColeta {
  return {
    _id: PONTO_IP,
    projeto: PROJETO,
    coordenadas: AQUI,
    dataHora: null,
    sincronizadoEm: START - 86_400_000,
    fotos: [],
    coletado: false,
    adicionadoApp: false,
    carregadoBackoffice: true,
    idConcessionaria: 'CEL-7731',
    ...changes,
  };
}

function photo(seed: number): Blob {
  return new Blob([new Uint8Array([0xff, 0xd8, 0xff, seed])], { type: 'image/jpeg' });
}

let databases = 0;

describe('RecordStore', () => {
  let db: NovusDatabase;
  let records: RecordStore;
  let clock = START;

  beforeEach(() => {
    clock = START;
    db = new NovusDatabase(`Novus-records-${(databases += 1)}`);
    records = new RecordStore(db, () => clock);
  });
  afterEach(async () => {
    db.close();
    await db.delete();
  });

  const addUnidade = (numero = '100') =>
    records.add(unidadeFlow, {
      projeto: PROJETO,
      dataHora: clock,
      coordenadas: AQUI,
      fotos: [],
      dados: { tipoUnidade: 'SDU', tipoEdificacao: 'Residencial', tipoImovel: 'RESIDENCIAL', numero },
    });

  const collectIp = (id: string, dados: Record<string, unknown> = { possuiIP: true }) => {
    clock += 1000;
    return records.collect(ipFlow, id, { coordenadas: AQUI, fotos: [photo(1)], dados });
  };

  async function downloadedIp(changes: Partial<RemoteColeta> = {}): Promise<LocalColeta> {
    await records.merge(ipFlow, [preloadedIp(changes)]);
    const point = await records.getByID(ipFlow, PONTO_IP);
    if (!point) throw new Error('not downloaded');
    return point;
  }

  describe('isPending', () => {
    it('a unit or pole is pending until it has sincronizadoEm', async () => {
      const unidade = await addUnidade();
      expect(isPending(unidadeFlow, unidade)).toBe(true);
      expect(isPending(unidadeFlow, { ...unidade, sincronizadoEm: clock })).toBe(false);
      expect(isPending(posteFlow, { ...unidade, coletado: false })).toBe(true);
    });

    it('a point is pending only once collected and until it has sincronizadoEm', async () => {
      const drawn = await records.addPoint(bdgdFlow, PROJETO, AQUI);
      expect(drawn).toMatchObject({ coletado: false, adicionadoApp: true, carregadoBackoffice: false });
      expect(isPending(bdgdFlow, drawn)).toBe(false);
      expect(isPending(bdgdFlow, { ...drawn, coletado: true })).toBe(true);
      expect(isPending(bdgdFlow, { ...drawn, coletado: true, sincronizadoEm: clock })).toBe(false);

      const preloaded = await downloadedIp();
      expect(preloaded).toMatchObject({
        coletado: false,
        carregadoBackoffice: true,
        sincronizadoEm: expect.any(Number),
      });
      expect(isPending(ipFlow, preloaded)).toBe(false);
      const collected = await collectIp(PONTO_IP);
      expect(collected).toMatchObject({ id: PONTO_IP, coletado: true, carregadoBackoffice: true });
      expect(collected.sincronizadoEm).toBeUndefined();
      expect(isPending(ipFlow, collected)).toBe(true);
      expect((await records.pending(ipFlow)).map((point) => point.id)).toEqual([PONTO_IP]);
    });

    it('each collection of a point gets its own collection id', async () => {
      await downloadedIp();
      const first = await collectIp(PONTO_IP);
      const second = await collectIp(PONTO_IP);
      expect(first.coletaId).toBeDefined();
      expect(second.coletaId).not.toBe(first.coletaId);
      expect(second.dados).toMatchObject({ idConcessionaria: 'CEL-7731', possuiIP: true });
    });
  });

  describe('deleteRecord', () => {
    it('refuses a point loaded by the back office', async () => {
      await downloadedIp();
      await expect(records.deleteRecord(ipFlow, PONTO_IP)).rejects.toBeInstanceOf(DeleteRefusedError);
      await collectIp(PONTO_IP);
      await expect(records.deleteRecord(ipFlow, PONTO_IP)).rejects.toBeInstanceOf(DeleteRefusedError);
      expect(await records.getByID(ipFlow, PONTO_IP)).toBeDefined();
    });

    it('refuses a drawn point the server already has', async () => {
      const drawn = await records.addPoint(ipFlow, PROJETO, AQUI);
      const sent = await collectIp(drawn.id);
      await records.confirmUploaded(ipFlow, sent);
      await expect(records.deleteRecord(ipFlow, drawn.id)).rejects.toBeInstanceOf(DeleteRefusedError);
      expect(await records.getByID(ipFlow, drawn.id)).toBeDefined();
    });

    it('deletes a point drawn in the app, collected or not, and a unit', async () => {
      const drawn = await records.addPoint(bdgdFlow, PROJETO, AQUI);
      const collected = await records.addPoint(ipFlow, PROJETO, AQUI);
      await collectIp(collected.id);
      const unidade = await addUnidade();
      await records.deleteRecord(bdgdFlow, drawn.id);
      await records.deleteRecord(ipFlow, collected.id);
      await records.deleteRecord(unidadeFlow, unidade.id);
      expect(await records.getAll(bdgdFlow)).toEqual([]);
      expect(await records.getAll(ipFlow)).toEqual([]);
      expect(await records.getAll(unidadeFlow)).toEqual([]);
    });
  });

  describe('merge', () => {
    it('never overwrites a collection still pending on the device', async () => {
      await downloadedIp();
      await collectIp(PONTO_IP, { possuiIP: true, idConcessionaria: 'CORRIGIDO' });
      expect(await records.merge(ipFlow, [preloadedIp({ idConcessionaria: 'DO SERVIDOR' })])).toBe(0);
      const kept = await records.getByID(ipFlow, PONTO_IP);
      expect(kept?.dados.idConcessionaria).toBe('CORRIGIDO');
      expect((await records.pending(ipFlow)).map((point) => point.id)).toEqual([PONTO_IP]);
    });

    it('never overwrites a point drawn on the device and not collected yet', async () => {
      const drawn = await records.addPoint(bdgdFlow, PROJETO, AQUI);
      const remote: RemoteColeta = { ...preloadedIp(), _id: drawn.id, coletado: true, ativo: 'Poste' };
      expect(await records.merge(bdgdFlow, [remote])).toBe(0);
      expect(await records.getByID(bdgdFlow, drawn.id)).toEqual(drawn);
    });

    it('replaces a synchronised record with the server’s and adds new ones', async () => {
      await downloadedIp();
      const other = {
        ...preloadedIp(),
        _id: '0190a1b2-c3d4-7e5f-8a9b-0000000000a2',
        idConcessionaria: 'CEL-2',
      };
      const collectedElsewhere = preloadedIp({ coletado: true, dataHora: clock, fotos: ['/api/fotos/x/0'] });
      expect(await records.merge(ipFlow, [collectedElsewhere, other])).toBe(2);
      expect(await records.getByID(ipFlow, PONTO_IP)).toMatchObject({
        coletado: true,
        fotosUrls: ['/api/fotos/x/0'],
      });
      expect((await records.getByID(ipFlow, other._id))?.dados.idConcessionaria).toBe('CEL-2');
    });
  });

  describe('confirmUploaded', () => {
    it('deletes an uploaded unit and marks an uploaded point synchronised', async () => {
      const unidade = await addUnidade();
      await downloadedIp();
      const point = await collectIp(PONTO_IP);
      clock += 1000;
      await records.confirmUploaded(unidadeFlow, unidade);
      await records.confirmUploaded(ipFlow, point);
      expect(await records.getByID(unidadeFlow, unidade.id)).toBeUndefined();
      expect(await records.getByID(ipFlow, PONTO_IP)).toMatchObject({
        sincronizadoEm: clock,
        coletado: true,
      });
      expect(await records.pending(ipFlow)).toEqual([]);
    });

    it('leaves pending a point collected again while its upload was in flight', async () => {
      await downloadedIp();
      const sent = await collectIp(PONTO_IP, { possuiIP: true });
      const again = await collectIp(PONTO_IP, { possuiUsoMutuo: true });
      await records.confirmUploaded(ipFlow, sent);
      const local = await records.getByID(ipFlow, PONTO_IP);
      expect(local?.coletaId).toBe(again.coletaId);
      expect(local?.sincronizadoEm).toBeUndefined();
      expect((await records.pending(ipFlow)).map((point) => point.id)).toEqual([PONTO_IP]);
    });

    it('leaves on the device a unit edited while its upload was in flight', async () => {
      const sent = await addUnidade('100');
      // The technician corrects the number on the unit's screen; the upload already carries '100'.
      const read = await records.getByID(unidadeFlow, sent.id);
      if (!read) throw new Error('no unit');
      await records.update(unidadeFlow, { ...read, dados: { ...read.dados, numero: '102' } });
      await records.confirmUploaded(unidadeFlow, sent);
      const local = await records.getByID(unidadeFlow, sent.id);
      expect(local?.dados.numero).toBe('102');
      expect((await records.pending(unidadeFlow)).map((unidade) => unidade.id)).toEqual([sent.id]);
    });

    it('leaves alone a record the technician deleted meanwhile', async () => {
      const sent = await records.addPoint(ipFlow, PROJETO, AQUI);
      const collected = await collectIp(sent.id);
      await records.deleteRecord(ipFlow, sent.id);
      await records.confirmUploaded(ipFlow, collected);
      expect(await records.getAll(ipFlow)).toEqual([]);
    });
  });
});
