// 'Compactar Imagens' over the device database: every pending photo, progress 'x de y', then sync may go.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FLOWS } from '@novus/domain/flows/registry';
import { fiscalizacaoFlow } from '@novus/domain/flows/fiscalizacao';
import { posteFlow } from '@novus/domain/flows/poste';
import { unidadeFlow } from '@novus/domain/flows/unidade';
import { compressAll, progressText } from '../src/offline/compress';
import { storedSize } from '../src/offline/photo-render';
import { NovusDatabase } from '../src/offline/db';
import { RecordStore } from '../src/offline/records';

let db: NovusDatabase;
let store: RecordStore;
let name = 0;

beforeEach(() => {
  name += 1;
  db = new NovusDatabase(`compress-${name}`);
  store = new RecordStore(db, () => 1_700_000_000_000 + name);
});
afterEach(() => db.delete());

const base = { projeto: 'p', dataHora: 1, coordenadas: { lat: -25.43, lng: -49.27 }, dados: {} };

describe('compressAll', () => {
  it('compresses every photo of every flow and marks the records', async () => {
    await store.add(unidadeFlow, { ...base, fotos: [new Blob(['aaaa']), null, new Blob(['bbbb'])] });
    await store.add(posteFlow, { ...base, fotos: [new Blob(['cccc'])] });
    await store.add(posteFlow, { ...base, fotos: [] });
    expect(await store.hasUncompressed(FLOWS)).toBe(true);

    const progress: string[] = [];
    const count = await compressAll(
      store,
      FLOWS,
      async (foto) => new Blob([`z${foto.size}`]),
      (p) => progress.push(progressText(p)),
    );
    expect(count).toBe(3);
    expect(progress).toEqual(['0 de 3', '1 de 3', '2 de 3', '3 de 3']);
    expect(await store.hasUncompressed(FLOWS)).toBe(false);
    const [unidade] = await store.getAll(unidadeFlow);
    expect(unidade?.fotos[1]).toBeNull();
    expect(await unidade?.fotos[0]?.text()).toBe('z4');
  });

  it('keeps EXIF only for the flows whose declaration says so (fiscalização, LPT Agiltec, Grupo A)', async () => {
    await store.add(posteFlow, { ...base, fotos: [new Blob(['poste'])] });
    const drawn = await store.addPoint(fiscalizacaoFlow, 'p', { lat: -25.43, lng: -49.27 });
    await store.collect(fiscalizacaoFlow, drawn.id, {
      coordenadas: drawn.coordenadas,
      fotos: [new Blob(['fiscalizacao'])],
      dados: { observacao: 'ok' },
    });
    const seen: Record<string, boolean> = {};
    await compressAll(store, FLOWS, async (foto, { keepExif }) => {
      seen[await foto.text()] = keepExif;
      return foto;
    });
    expect(seen).toEqual({ poste: false, fiscalizacao: true });
  });

  it('a failure leaves the record uncompressed, so sync still refuses', async () => {
    await store.add(unidadeFlow, { ...base, fotos: [new Blob(['aaaa'])] });
    await expect(
      compressAll(store, FLOWS, async () => {
        throw new Error('sem memória');
      }),
    ).rejects.toThrow('sem memória');
    expect(await store.hasUncompressed(FLOWS)).toBe(true);
  });
});

describe('compressAll with the stamp (issue 26)', () => {
  it('hands each record its stamp, and keeps the originals’ SHA-256 once the photos are replaced', async () => {
    const original = new TextEncoder().encode('original bytes');
    const added = await store.add(posteFlow, { ...base, fotos: [null, new Blob([original])] });
    const semCarimbo = await store.add(unidadeFlow, { ...base, projeto: 'sem', fotos: [new Blob(['u'])] });
    const seen = new Map<string, readonly string[] | null | undefined>();
    await compressAll(
      store,
      FLOWS,
      async (foto, { carimbo }) => {
        seen.set(await foto.text(), carimbo);
        return new Blob(['stamped']);
      },
      () => undefined,
      (flow, record) => (record.projeto === 'sem' ? null : [`${flow.labels.record} ${record.id}`]),
    );
    expect(seen.get('original bytes')).toEqual([`Poste ${added.id}`]);
    expect(seen.get('u')).toBeNull();
    const hash = Buffer.from(await crypto.subtle.digest('SHA-256', original)).toString('hex');
    const poste = await store.getByID(posteFlow, added.id);
    expect(poste?.fotosOriginaisSha256).toEqual([null, hash]);
    expect(poste?.fotosSha256?.[1]).not.toBe(hash);
    expect((await store.getByID(unidadeFlow, semCarimbo.id))?.fotosOriginaisSha256).toHaveLength(1);
  });
});

describe('storedSize', () => {
  it('scales a portrait photo to 1920 px wide', () => {
    // 3000x4000 ends 1920x2560, not 1440x1920
    expect(storedSize(3000, 4000)).toEqual({ width: 1920, height: 2560 });
  });

  it('scales a landscape photo to 1920 px wide', () => {
    expect(storedSize(4000, 3000)).toEqual({ width: 1920, height: 1440 });
  });

  it('leaves a photo at most 1920 px wide at its size, however tall', () => {
    expect(storedSize(1080, 2400)).toEqual({ width: 1080, height: 2400 });
    expect(storedSize(1920, 1080)).toEqual({ width: 1920, height: 1080 });
  });
});
