// Helpers of the fault journeys (issue 12): units put on the device as a phone that collected them offline holds
// them, what the device holds of them (ids and the SHA-256 of each photo), and what the server holds.
import crypto from 'node:crypto';
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { makeJpeg } from './collect-setup';

/** A pending unit as the device holds it: its id, its number and the SHA-256 of each photo, slot by slot. */
export interface DeviceUnidade {
  id: string;
  numero: string;
  hashes: string[];
}

export function sha256(bytes: Buffer): string {
  return crypto.createHash('sha256').update(bytes).digest('hex');
}

/** A unit waiting on the phone: its number, and optionally when it was collected and its photos. */
export interface PendingUnidade {
  numero: string;
  /** When it was collected; by default after anything already on the device, in the list's order. */
  dataHora?: number;
  /** What each photo slot shows (a real JPEG with that text), null for an empty slot; by default two photos. */
  fotos?: (string | null)[];
}

/**
 * Units waiting on the phone, with real (already compressed) JPEGs, written straight into the device's database:
 * many records without walking the wizard for each, as a phone that collected them offline would hold them.
 * Answers their ids, in order.
 */
export async function putPendingUnidades(
  page: Page,
  projetoId: string,
  unidades: readonly (string | PendingUnidade)[],
): Promise<string[]> {
  const now = Date.now();
  const records = [];
  for (const [index, unidade] of unidades.entries()) {
    const { numero, dataHora, fotos } = typeof unidade === 'string' ? { numero: unidade } : unidade;
    const labels = fotos ?? [`Nº ${numero} a`, `Nº ${numero} b`];
    records.push({
      id: crypto.randomUUID(),
      numero,
      index,
      dataHora: dataHora ?? now + index,
      jpegs: await Promise.all(
        labels.map(async (label) =>
          label === null ? null : (await makeJpeg(page, label, 320, 240)).toString('base64'),
        ),
      ),
    });
  }
  await page.evaluate(
    async ({ projetoId, records }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open('Novus');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const foto = (base64: string | null) =>
        base64 === null
          ? null
          : new Blob([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], { type: 'image/jpeg' });
      const tx = db.transaction('unidade', 'readwrite');
      const store = tx.objectStore('unidade');
      for (const { id, numero, index, dataHora, jpegs } of records) {
        store.put({
          id,
          projeto: projetoId,
          coordenadas: { lat: -25.435 + index * 0.0001, lng: -49.275 },
          dataHora,
          imagensCompactadas: true,
          fotos: jpegs.map(foto),
          dados: {
            tipoUnidade: 'SDU',
            tipoEdificacao: 'Residencial',
            tipoImovel: 'RESIDENCIAL',
            numero,
            quantidade: '1',
          },
        });
      }
      await new Promise<void>((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
      db.close();
    },
    { projetoId, records },
  );
  return records.map((record) => record.id);
}

/** A record waiting on the device: its id, when it was collected, its number (units) and its photos' SHA-256s. */
export interface DevicePending {
  id: string;
  dataHora: number;
  numero: string;
  hashes: string[];
}

/** The records waiting on the device in a flow's store of 'Novus' ('unidade', 'poste'...), in the store's order. */
export async function devicePending(page: Page, store: string): Promise<DevicePending[]> {
  return page.evaluate(async (store) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('Novus');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const all = await new Promise<
      {
        id: string;
        dataHora: number;
        sincronizadoEm?: number;
        fotos: (Blob | null)[];
        dados: { numero?: string };
      }[]
    >((resolve, reject) => {
      const request = db.transaction(store).objectStore(store).getAll();
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    db.close();
    const hex = async (blob: Blob) =>
      Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', await blob.arrayBuffer())), (byte) =>
        byte.toString(16).padStart(2, '0'),
      ).join('');
    const found = [];
    for (const record of all) {
      if (record.sincronizadoEm) continue;
      const hashes = [];
      for (const blob of record.fotos) if (blob) hashes.push(await hex(blob));
      found.push({ id: record.id, dataHora: record.dataHora, numero: record.dados.numero ?? '', hashes });
    }
    return found;
  }, store);
}

/** The device's pending units with these numbers, sorted by number, with the SHA-256 of each photo. */
export async function deviceUnidades(page: Page, numeros: string[]): Promise<DeviceUnidade[]> {
  return (await devicePending(page, 'unidade'))
    .filter((unidade) => numeros.includes(unidade.numero))
    .map(({ id, numero, hashes }) => ({ id, numero, hashes }))
    .sort((a, b) => a.numero.localeCompare(b.numero));
}

/**
 * Each unit is on the server exactly once (counted by id) with its photos byte for byte: the SHA-256 of every
 * photo the server serves equals the one the device held.
 */
export async function expectOnServerOnce(
  admin: APIRequestContext,
  projetoNome: string,
  expected: readonly DeviceUnidade[],
): Promise<void> {
  const response = await admin.get(`/api/unidade/${encodeURIComponent(projetoNome)}`);
  expect(response.ok()).toBe(true);
  const stored = (await response.json()) as { _id: string; numero?: string; fotos: string[] }[];
  for (const unidade of expected) {
    const copies = stored.filter((record) => record._id === unidade.id);
    expect(copies, `unit nº ${unidade.numero} on the server`).toHaveLength(1);
    const hashes: string[] = [];
    for (const url of copies[0]?.fotos ?? []) {
      const foto = await admin.get(url);
      expect(foto.ok(), url).toBe(true);
      hashes.push(sha256(await foto.body()));
    }
    expect(hashes.sort(), `photos of unit nº ${unidade.numero}`).toEqual([...unidade.hashes].sort());
  }
  // nothing else with these numbers either (a duplicate under another id)
  const numeros = new Set(expected.map((unidade) => unidade.numero));
  expect(stored.filter((record) => numeros.has(record.numero ?? '')).length).toBe(expected.length);
}

/** The database other data of the site fills, as photos of past days and other pages would. */
const FILLER_DB = 'novus-e2e-enchimento';

/**
 * Writes random bytes into a separate IndexedDB database until the browser refuses them (QuotaExceededError),
 * in 256 KB pieces and then 16 KB ones, so that less than 16 KB is left. Returns the bytes written.
 */
export async function fillStorage(page: Page): Promise<number> {
  return page.evaluate(async (name) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open(name);
      open.onupgradeneeded = () => open.result.createObjectStore('pedacos', { autoIncrement: true });
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const put = (size: number) =>
      new Promise<boolean>((resolve) => {
        const bytes = new Uint8Array(size);
        for (let start = 0; start < size; start += 65_536)
          crypto.getRandomValues(bytes.subarray(start, start + 65_536));
        const tx = db.transaction('pedacos', 'readwrite');
        tx.objectStore('pedacos').add(new Blob([bytes]));
        tx.oncomplete = () => resolve(true);
        tx.onabort = () => resolve(false);
      });
    let written = 0;
    for (const size of [256 * 1024, 16 * 1024]) {
      for (let round = 0; round < 400 && (await put(size)); round += 1) written += size;
    }
    db.close();
    return written;
  }, FILLER_DB);
}

/** Frees what fillStorage took. */
export async function emptyStorage(page: Page): Promise<void> {
  await page.evaluate(
    (name) =>
      new Promise<void>((resolve, reject) => {
        const request = indexedDB.deleteDatabase(name);
        request.onsuccess = () => resolve();
        request.onerror = () => reject(request.error);
      }),
    FILLER_DB,
  );
}

/** The numbers of the project's units the server holds, one per stored record. */
export async function serverUnidadeNumeros(admin: APIRequestContext, projetoNome: string): Promise<string[]> {
  const response = await admin.get(`/api/unidade/${encodeURIComponent(projetoNome)}`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { numero?: string }[]).map((record) => record.numero ?? '');
}
