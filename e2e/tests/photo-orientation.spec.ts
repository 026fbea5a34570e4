// Real camera photos through 'Compactar Imagens' (issue 20): a photo whose pixels are stored turned, with an EXIF
// orientation tag saying so (../shared/realworld/jpg/orientation__*), still displays the way it was taken once
// compressed, in a flow that drops EXIF (Unidade) and in one that keeps it (Grupo A); GPS tags stay only in the
// latter. "Displays" is decided as a viewer decides it: the browser decodes the result, and its size and picture
// are compared with the upright original (orientation 1).
import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { expectAccessible } from '../support/axe';
import { hasGpsExif } from '../support/collect-checks';
import { acceptDialogs, openProjetoMenu, TechnicianHome, WizardPage } from '../support/collect-pages';
import { type CollectWorld, setUpWorld, TECHNICIAN_PHONE, TECNICO_PASSWORD } from '../support/collect-setup';
import { LoginPage } from '../support/login-page';
import {
  blockDistance,
  type DisplayedPhoto,
  displayInPage,
  jpegFacts,
  TURN_WORDS,
  WRONG_TURNS,
} from '../support/photo-orientation';

const JPG_DIR = path.resolve(import.meta.dirname, '../../../shared/realworld/jpg');
const photoPath = (name: string) => path.join(JPG_DIR, name);
const readPhoto = (name: string) => fs.readFileSync(photoPath(name));

const SHAPES = ['landscape', 'portrait'] as const;
/** Every EXIF orientation, mirrored ones included: 3 is turned half round, 6 and 8 a quarter either way. */
const ORIENTATIONS = [1, 2, 3, 4, 5, 6, 7, 8] as const;
const ORIENTED = SHAPES.flatMap((shape) => ORIENTATIONS.map((n) => `orientation__${shape}_${n}.jpg`));
/** A Nikon photo with GPS tags: fiscalização, LPT Agiltec and Grupo A keep them, other flows drop them. */
const GPS_PHOTO = 'gps__DSCN0010.jpg';
const reference = (name: string) => name.replace(/_\d\.jpg$/, '_1.jpg');

/**
 * Largest mean difference per channel between a compressed photo and its upright original: JPEG at quality 0.7
 * moves these photos' block averages by under 2; turned or mirrored they move by 20 or more (checked below).
 */
const SAME_PICTURE = 6;

test.use(TECHNICIAN_PHONE);

let world: CollectWorld;

test.beforeAll(async () => {
  // Without the stamp (issue 26): its band would cover the foot of the pictures compared here
  // (technician-carimbo.spec.ts checks a stamped photo turned by its camera).
  world = await setUpWorld({ fluxos: 'hc,grupoA', carimboFotos: false });
});
test.afterAll(async () => {
  await world.admin.dispose();
});

/** Records with these photos, one photo each, written on the device as the wizards write them. */
async function putPendingPhotos(page: Page, store: 'unidade' | 'grupoA', names: string[]): Promise<void> {
  const records = names.map((name, index) => ({
    id: crypto.randomUUID(),
    index,
    name,
    jpeg: readPhoto(name).toString('base64'),
  }));
  await page.evaluate(
    async ({ projetoId, store, records }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open('Novus');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const tx = db.transaction(store, 'readwrite');
      for (const { id, index, name, jpeg } of records) {
        const bytes = Uint8Array.from(atob(jpeg), (c) => c.charCodeAt(0));
        tx.objectStore(store).put({
          id,
          projeto: projetoId,
          coordenadas: { lat: -25.435, lng: -49.275 },
          dataHora: Date.now() + index,
          imagensCompactadas: false,
          // A File, as the photo input hands it to the form.
          fotos: [new File([bytes], name, { type: 'image/jpeg' })],
          dados:
            store === 'unidade'
              ? {
                  tipoUnidade: 'SDU',
                  tipoEdificacao: 'Residencial',
                  tipoImovel: 'RESIDENCIAL',
                  numero: String(index + 1),
                  quantidade: '1',
                  complemento1: name,
                }
              : { uc: name, medidor: 'M-1', levantamentoAcompanhado: false, levantamentoAutorizado: false },
        });
      }
      await new Promise<void>((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
      db.close();
    },
    { projetoId: world.projetoId, store, records },
  );
}

/** The device's photos after compression, keyed 'store/photo name' (the wizard's Grupo A: 'wizard/name'). */
async function devicePhotos(page: Page, wizardPhotos: string[]): Promise<Record<string, Buffer>> {
  const stored = await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('Novus');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const found: { store: string; name: string; compactadas: boolean; fotos: (string | null)[] }[] = [];
    for (const store of ['unidade', 'grupoA']) {
      const all = await new Promise<
        { imagensCompactadas: boolean; fotos: (Blob | null)[]; dados: Record<string, unknown> }[]
      >((resolve, reject) => {
        const request = db.transaction(store).objectStore(store).getAll();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      for (const record of all) {
        const fotos = [];
        for (const foto of record.fotos) {
          if (!foto) {
            fotos.push(null);
            continue;
          }
          let binary = '';
          for (const byte of new Uint8Array(await foto.arrayBuffer())) binary += String.fromCharCode(byte);
          fotos.push(btoa(binary));
        }
        const name = String(record.dados.complemento1 ?? record.dados.uc ?? '');
        found.push({ store, name, compactadas: record.imagensCompactadas, fotos });
      }
    }
    db.close();
    return found;
  });
  const photos: Record<string, Buffer> = {};
  for (const { store, name, compactadas, fotos } of stored) {
    expect(compactadas, `${store} ${name} compressed`).toBe(true);
    if (name === 'wizard') {
      fotos.forEach((foto, slot) => {
        if (foto) photos[`wizard/${wizardPhotos[slot] ?? slot}`] = Buffer.from(foto, 'base64');
      });
    } else if (fotos[0]) {
      photos[`${store}/${name}`] = Buffer.from(fotos[0], 'base64');
    }
  }
  return photos;
}

/** What is wrong with how a compressed photo displays, compared with the original's upright version. */
function displayProblems(
  key: string,
  original: Buffer,
  compressed: Buffer,
  shown: DisplayedPhoto,
  upright: DisplayedPhoto,
): string[] {
  const problems: string[] = [];
  if (shown.width !== upright.width || shown.height !== upright.height) {
    problems.push(`${key} shows ${shown.width}×${shown.height}, taken ${upright.width}×${upright.height}`);
  }
  if (shown.imgWidth !== shown.width || shown.imgHeight !== shown.height) {
    problems.push(
      `${key}: <img> shows ${shown.imgWidth}×${shown.imgHeight}, the decoder ${shown.width}×${shown.height}`,
    );
  }
  const distance = blockDistance(shown, upright);
  if (distance > SAME_PICTURE)
    problems.push(`${key} differs from the upright photo by ${distance.toFixed(1)}`);
  for (const turn of WRONG_TURNS) {
    const turned = blockDistance(shown, upright, turn);
    if (turned <= distance)
      problems.push(`${key} looks ${TURN_WORDS[turn]} (${turned.toFixed(1)} ≤ ${distance.toFixed(1)})`);
  }
  // The bytes agree with what shows: pixels upright and no turning tag, or the original's pixels and its tag.
  const before = jpegFacts(original);
  const after = jpegFacts(compressed);
  const turning = after.orientation !== undefined && after.orientation !== 1;
  const upright1 = after.storedWidth === upright.width && after.storedHeight === upright.height;
  const keptAsTaken =
    after.orientation === before.orientation &&
    after.storedWidth === before.storedWidth &&
    after.storedHeight === before.storedHeight;
  if (turning ? !keptAsTaken : !upright1) {
    problems.push(
      `${key}: pixels stored ${after.storedWidth}×${after.storedHeight} with orientation ${String(after.orientation)}` +
        ` (original ${before.storedWidth}×${before.storedHeight}, orientation ${String(before.orientation)})`,
    );
  }
  return problems;
}

test('camera photos stored turned still display as taken after Compactar Imagens, with EXIF kept or dropped', async ({
  page,
}) => {
  test.setTimeout(240_000);
  acceptDialogs(page);
  const home = new TechnicianHome(page);
  await new LoginPage(page).goto();
  await new LoginPage(page).signIn(world.tecnico.login, TECNICO_PASSWORD);
  await expect(page.getByRole('heading', { name: `Olá, ${world.tecnico.nome}` })).toBeVisible();
  await home.sync();
  await home.expectSynced();

  // A Grupo A through the form: three photos turned by the camera, handed over as the phone's file picker does.
  const wizardPhotos = [
    'orientation__landscape_6.jpg',
    'orientation__portrait_8.jpg',
    'orientation__landscape_3.jpg',
  ];
  const menu = await openProjetoMenu(page, world.projetoNome);
  await menu.getByRole('link', { name: 'Grupo A' }).click();
  const wizard = new WizardPage(page);
  await wizard.tapMap();
  await wizard.gravarCoordenadas.click();
  await expect(wizard.step('Passo 2 de 2: Dados do Grupo A')).toBeVisible();
  await page.getByLabel('UC').fill('wizard');
  await page.getByLabel('Medidor').fill('M-1');
  for (const [index, name] of wizardPhotos.entries()) {
    await page.getByLabel(`Foto ${index + 1}`, { exact: true }).setInputFiles(photoPath(name));
    const thumbnail = page.getByRole('img', { name: `Miniatura da Foto ${index + 1}` });
    await expect(thumbnail).toBeVisible();
    // the thumbnail already shows the photo upright: a landscape photo wider than tall (read once it is decoded:
    // visible comes before the image's size is known)
    await expect
      .poll(
        () =>
          thumbnail.evaluate((img: HTMLImageElement) =>
            img.complete && img.naturalWidth > 0
              ? img.naturalWidth > img.naturalHeight
                ? 'landscape'
                : 'portrait'
              : 'loading',
          ),
        { message: name },
      )
      .toBe(name.includes('landscape') ? 'landscape' : 'portrait');
  }
  await expectAccessible(page, 'grupo a form with camera photos');
  await wizard.gravar.click();
  await expect(page.getByText('Grupo A gravado no aparelho.')).toBeVisible();

  // Every orientation, landscape and portrait, in a flow that drops EXIF and in one that keeps it.
  await page.goto('/');
  await putPendingPhotos(page, 'unidade', [...ORIENTED, GPS_PHOTO]);
  await putPendingPhotos(page, 'grupoA', [...ORIENTED, GPS_PHOTO]);
  await home.compactar.click();
  await expect(home.status).toHaveText('Compactacao concluida com sucesso', { timeout: 150_000 });

  const compressed = await devicePhotos(page, wizardPhotos);
  expect(Object.keys(compressed).sort()).toEqual(
    [
      ...[...ORIENTED, GPS_PHOTO].flatMap((name) => [`unidade/${name}`, `grupoA/${name}`]),
      ...wizardPhotos.map((name) => `wizard/${name}`),
    ].sort(),
  );

  const originals = Object.fromEntries(
    [...ORIENTED, GPS_PHOTO].map((name) => [name, readPhoto(name).toString('base64')]),
  );
  const shownOriginals = await displayInPage(page, originals);
  const shownCompressed = await displayInPage(
    page,
    Object.fromEntries(Object.entries(compressed).map(([key, bytes]) => [key, bytes.toString('base64')])),
  );

  const problems: string[] = [];
  // The browser shows each original upright: what the camera meant is what orientation 1 shows.
  for (const name of ORIENTED) {
    const shown = shownOriginals[name];
    const upright = shownOriginals[reference(name)];
    if (!shown || !upright) throw new Error(`${name} not decoded`);
    if (shown.width !== upright.width || blockDistance(shown, upright) > SAME_PICTURE) {
      problems.push(`original ${name} does not display as ${reference(name)}`);
    }
  }
  // And the pictures tell a turn apart, far beyond what compression changes: a double rotation cannot pass.
  for (const shape of SHAPES) {
    const upright = shownOriginals[`orientation__${shape}_1.jpg`];
    if (!upright) throw new Error(`${shape} not decoded`);
    for (const turn of WRONG_TURNS) {
      const turned = blockDistance(upright, upright, turn);
      if (turned < 3 * SAME_PICTURE)
        problems.push(`the ${shape} photo ${TURN_WORDS[turn]} differs only by ${turned}`);
    }
  }
  for (const [key, bytes] of Object.entries(compressed)) {
    const name = key.slice(key.indexOf('/') + 1);
    const shown = shownCompressed[key];
    const upright = shownOriginals[name === GPS_PHOTO ? name : reference(name)];
    if (!shown || !upright) throw new Error(`${key} not decoded`);
    problems.push(...displayProblems(key, readPhoto(name), bytes, shown, upright));
  }
  expect(problems).toEqual([]);

  // Unidade drops the camera's EXIF (GPS included); Grupo A keeps it (SPEC.md section 9).
  expect(hasGpsExif(readPhoto(GPS_PHOTO))).toBe(true);
  expect(hasGpsExif(compressed[`unidade/${GPS_PHOTO}`] ?? Buffer.alloc(0))).toBe(false);
  expect(hasGpsExif(compressed[`grupoA/${GPS_PHOTO}`] ?? Buffer.alloc(0))).toBe(true);
});
