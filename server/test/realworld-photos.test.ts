// Photos from real cameras and phones (../shared/realworld/jpg: nineteen makers, GPS, HDR, every orientation,
// broken EXIF) through the server's photo check and upload route: each is taken whole and refused cut short.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkImage } from './support/image-check.ts';
import {
  createFieldProject,
  createTestContext,
  type FieldProject,
  type TestContext,
  uploadRecord,
} from './support/test-app.ts';

const JPG_DIR = path.resolve(import.meta.dirname, '../../../shared/realworld/jpg');
const readPhoto = (name: string) => fs.readFileSync(path.join(JPG_DIR, name));
const CORRUPTED = 'corrupted.jpg';
const CAMERA_PHOTOS = fs.readdirSync(JPG_DIR).filter((name) => name.endsWith('.jpg') && name !== CORRUPTED);
const CUT = 'A foto está incompleta ou corrompida: tire ou envie a foto de novo.';

describe('the photo check on real camera photos', () => {
  it('has the collection to check: cameras, phones, GPS, HDR, orientations and broken EXIF', () => {
    expect(CAMERA_PHOTOS.length).toBeGreaterThanOrEqual(80);
    for (const kind of ['gps__', 'hdr__', 'mobile__', 'orientation__', 'invalid__', 'tests__']) {
      expect(
        CAMERA_PHOTOS.some((name) => name.startsWith(kind)),
        kind,
      ).toBe(true);
    }
  });

  // An odd chunk size puts markers across chunk boundaries (tiny chunks make the check's head copying quadratic).
  it.each(CAMERA_PHOTOS)('takes %s whole, however the upload stream is chunked', (name) => {
    const bytes = readPhoto(name);
    const whole = checkImage(bytes, 1 << 20);
    expect(whole).toMatch(/^image\/jpeg \d+x\d+$/);
    expect(checkImage(bytes, 4096)).toBe(whole);
    expect(checkImage(bytes, 1021)).toBe(whole);
  });

  it('reads the stored size that file(1) reports for photos of every kind', () => {
    // `file FILE` on each: "JPEG image data, ..., 2048x1536, components 3".
    expect(checkImage(readPhoto('Reconyx_HC500_Hyperfire.jpg'), 4096)).toBe('image/jpeg 2048x1536');
    expect(checkImage(readPhoto('hdr__iphone_hdr_YES.jpg'), 4096)).toBe('image/jpeg 3264x2448');
    expect(checkImage(readPhoto('mobile__HMD_Nokia_8.3_5G.jpg'), 4096)).toBe('image/jpeg 4608x1976');
    expect(checkImage(readPhoto('invalid__image01713.jpg'), 4096)).toBe('image/jpeg 49x500');
    expect(checkImage(readPhoto('tests__87_OSError.jpg'), 4096)).toBe('image/jpeg 1488x2240');
    // Stored turned: the pixels are 450 wide, the EXIF tag turns them to 600×450 on screen.
    expect(checkImage(readPhoto('orientation__landscape_6.jpg'), 4096)).toBe('image/jpeg 450x600');
  });

  it.each(CAMERA_PHOTOS)('refuses %s cut short, as a dropped connection leaves it', (name) => {
    const bytes = readPhoto(name);
    for (const kept of [0.5, 0.9, 0.99]) {
      expect(checkImage(bytes.subarray(0, Math.floor(bytes.length * kept)), 4096), `${kept * 100}%`).toBe(
        CUT,
      );
    }
  });

  it('takes corrupted.jpg whole, as it does today: it ends with an end-of-image marker after its image data', () => {
    // libjpeg's djpeg reports "premature end of data" inside its image data; the check reads the markers around
    // the image data, it does not decode it, so a file damaged inside but ending properly passes.
    const bytes = readPhoto(CORRUPTED);
    expect(checkImage(bytes, 4096)).toBe('image/jpeg 3648x2736');
    // Cut by a dropped connection (before its last end marker but one), it is refused.
    expect(checkImage(bytes.subarray(0, 1_000_000), 4096)).toBe(CUT);
    expect(checkImage(bytes.subarray(0, Math.floor(bytes.length * 0.9)), 4096)).toBe(CUT);
  });
});

describe('real camera photos through the upload route', () => {
  let ctx: TestContext;
  let field: FieldProject;

  const unidade = (id: string) => ({
    id,
    projeto: field.projeto,
    // Inside 'Zona Centro' of the sample zoning, the technician's zone.
    coordenadas: JSON.stringify({ lat: -25.435, lng: -49.275 }),
    dataHora: String(Date.UTC(2026, 10, 20, 14, 30)),
    precisao: '4.5',
    tipoUnidade: 'SDU',
    tipoEdificacao: 'Residencial',
    tipoImovel: 'RESIDENCIAL',
    numero: '7',
    quantidade: '1',
  });

  beforeAll(async () => {
    ctx = await createTestContext();
    field = await createFieldProject(ctx.app, ctx.db, { nome: 'Fotos reais', fluxos: ['hc'] });
  });
  afterAll(async () => ctx.close());

  it('stores a unit with a phone’s HDR photo, one with broken EXIF and a GPS-tagged one, byte for byte', async () => {
    const names = ['hdr__iphone_hdr_YES.jpg', 'tests__87_OSError.jpg', 'gps__DSCN0010.jpg'];
    const fotos = names.map(readPhoto);
    const id = crypto.randomUUID();
    const response = await uploadRecord(ctx.app, 'unidade', unidade(id), {
      fotos,
      cookie: field.tecnicoCookie,
    });
    expect(response.statusCode, response.body).toBe(201);
    for (const [slot, foto] of fotos.entries()) {
      const served = await ctx.app.inject({
        method: 'GET',
        url: `/api/fotos/${id}/${slot}`,
        headers: { cookie: field.tecnicoCookie },
      });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/jpeg');
      expect(served.rawPayload.equals(foto), names[slot]).toBe(true);
    }
  });

  it('refuses a real photo cut short with 415 and the reason, and stores nothing', async () => {
    const id = crypto.randomUUID();
    const cut = readPhoto('mobile__jolla.jpg').subarray(0, 400_000);
    const response = await uploadRecord(ctx.app, 'unidade', unidade(id), {
      fotos: [cut],
      cookie: field.tecnicoCookie,
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().message).toBe(CUT);
    const stored = await ctx.db.query('SELECT id FROM registros WHERE id = $1', [id]);
    expect(stored).toEqual([]);
  });
});
