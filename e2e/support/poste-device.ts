// Poles on the technician's phone and on the server: poles written straight into the device's database as a phone
// that collected them holds them, what the device holds of its pending poles (ids and the SHA-256 of each photo),
// and whether the server holds each one once with those very bytes.
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { WizardPage } from './collect-pages';
import { GPS, makeJpeg } from './collect-setup';
import { devicePending, sha256 } from './fault-helpers';

/** One pole through the wizard (GPS, the form, two photos), saved on the device. */
export async function collectPoste(page: Page, projetoId: string, label: string): Promise<void> {
  const wizard = new WizardPage(page);
  await page.goto(`/projeto/${projetoId}/addPostes`);
  await expect(wizard.step('Passo 1 de 2: Coordenadas')).toBeVisible();
  await wizard.minhaLocalizacao.click();
  await wizard.gravarCoordenadas.click();
  await page.getByLabel('Altura').selectOption('10');
  await page.getByLabel('Carga').selectOption('300');
  await page.getByLabel('Tipo de rede elétrica').selectOption('MISTA');
  await page.getByLabel('Aterramento').check();
  await wizard.addPhotos(2, label);
  await wizard.gravar.click();
  await expect(page.getByText('Poste gravado no aparelho.')).toBeVisible();
}

/** A pending pole as the device holds it: its id and the SHA-256 of each photo, slot by slot. */
export interface DevicePoste {
  id: string;
  hashes: string[];
}

/**
 * Poles waiting on the phone, two real (already compressed) JPEGs each showing `label a` and `label b`, written
 * straight into the device's database as the wizard and 'Compactar Imagens' leave them (web/src/offline/records.ts,
 * the fields of domain/src/flows/poste.ts): many records without walking the wizard for each. Answers their ids,
 * in order.
 */
export async function putPendingPostes(
  page: Page,
  projetoId: string,
  labels: readonly string[],
): Promise<string[]> {
  const now = Date.now();
  const records = [];
  for (const [index, label] of labels.entries()) {
    const jpegs = [
      await makeJpeg(page, `${label} a`, 320, 240),
      await makeJpeg(page, `${label} b`, 320, 240),
    ];
    records.push({
      id: crypto.randomUUID(),
      // apart from each other and from the wizard's pole at the GPS fix, inside Zona Centro
      coordenadas: { lat: GPS.latitude + (index + 1) * 0.0002, lng: GPS.longitude - 0.0002 },
      dataHora: now + index,
      jpegs: jpegs.map((jpeg) => jpeg.toString('base64')),
      fotosSha256: jpegs.map(sha256),
    });
  }
  await page.evaluate(
    async ({ projetoId, records, accuracy }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open('Novus');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const foto = (base64: string) =>
        new Blob([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], { type: 'image/jpeg' });
      const tx = db.transaction('poste', 'readwrite');
      const store = tx.objectStore('poste');
      for (const { id, coordenadas, dataHora, jpegs, fotosSha256 } of records) {
        store.put({
          id,
          projeto: projetoId,
          coordenadas,
          precisao: accuracy,
          dataHora,
          imagensCompactadas: true,
          fotos: jpegs.map(foto),
          fotosSha256,
          dados: {
            tipo: 'CONCRETO CIRCULAR',
            altura: '11',
            carga: '600',
            tipoRedeEletrica: 'BAIXA TENSAO',
            aterramento: false,
            equipamentoRedeEnergia: 'TRANSFORMADOR',
            observacao: '',
          },
        });
      }
      await new Promise<void>((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
      db.close();
    },
    { projetoId, records, accuracy: GPS.accuracy },
  );
  return records.map((record) => record.id);
}

/** The device's pending poles, oldest first, with the SHA-256 of each photo. */
export async function devicePostes(page: Page): Promise<DevicePoste[]> {
  return (await devicePending(page, 'poste'))
    .sort((a, b) => a.dataHora - b.dataHora)
    .map(({ id, hashes }) => ({ id, hashes }));
}

interface ServerPoste {
  _id: string;
  fotos: string[];
}

/** The project's poles the server holds, one per stored record. */
export async function serverPostes(admin: APIRequestContext, projetoNome: string): Promise<ServerPoste[]> {
  const response = await admin.get(`/api/poste/getByNomeProjeto/${encodeURIComponent(projetoNome)}`);
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as ServerPoste[];
}

/**
 * The project's poles on the server are exactly these, each once (counted by id), with its photos byte for byte:
 * the SHA-256 of every photo the server serves equals the one the device held.
 */
export async function expectPostesOnServerOnce(
  admin: APIRequestContext,
  projetoNome: string,
  expected: readonly DevicePoste[],
): Promise<void> {
  const stored = await serverPostes(admin, projetoNome);
  expect(stored.map((poste) => poste._id).sort(), 'the poles on the server').toEqual(
    expected.map((poste) => poste.id).sort(),
  );
  for (const poste of expected) {
    const [copy] = stored.filter((record) => record._id === poste.id);
    const hashes: string[] = [];
    for (const url of copy?.fotos ?? []) {
      const foto = await admin.get(url);
      expect(foto.ok(), url).toBe(true);
      hashes.push(sha256(await foto.body()));
    }
    expect(hashes.sort(), `photos of pole ${poste.id}`).toEqual([...poste.hashes].sort());
  }
}
