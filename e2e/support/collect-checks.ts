// What the collection journeys check besides the screens: photos handed to the form (optionally with GPS EXIF,
// as a phone camera writes it) and the records and photo bytes the server ends up holding.
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { makeJpeg } from './collect-setup';

/** A record as a server list answers it. */
export interface ServerRecord {
  _id: string;
  tecnico: string | null;
  fotos: string[];
  [field: string]: unknown;
}

export async function serverList(admin: APIRequestContext, path: string): Promise<ServerRecord[]> {
  const response = await admin.get(path);
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as ServerRecord[];
}

/** The photo's bytes, checked to be served as a JPEG and to be one. */
export async function expectJpeg(admin: APIRequestContext, url: string): Promise<Buffer> {
  const foto = await admin.get(url);
  expect(foto.headers()['content-type']).toBe('image/jpeg');
  const body = await foto.body();
  expect([...body.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  return body;
}

export async function expectJpegs(admin: APIRequestContext, urls: string[]): Promise<void> {
  for (const url of urls) await expectJpeg(admin, url);
}

/** Hands a camera photo to the form's photo input `label` ('Foto 1'); with `gpsExif`, one carrying GPS EXIF. */
export async function addPhoto(
  page: Page,
  label: string,
  text: string,
  { gpsExif = false } = {},
): Promise<void> {
  const jpeg = await makeJpeg(page, text);
  await page.getByLabel(label, { exact: true }).setInputFiles({
    name: `${text}.jpg`,
    mimeType: 'image/jpeg',
    buffer: gpsExif ? withGpsExif(jpeg) : jpeg,
  });
}

/**
 * The JPEG with a GPS block in its EXIF: an APP1 segment (big-endian TIFF) whose first IFD points to a GPS IFD
 * holding GPSVersionID 2.3 and GPSLatitudeRef 'S', placed right after the start marker.
 */
export function withGpsExif(jpeg: Buffer): Buffer {
  const tiff = Buffer.alloc(56);
  tiff.write('MM', 0, 'ascii');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4); // IFD0
  tiff.writeUInt16BE(1, 8);
  tiff.writeUInt16BE(0x8825, 10); // GPSInfo, LONG, 1, offset of the GPS IFD
  tiff.writeUInt16BE(4, 12);
  tiff.writeUInt32BE(1, 14);
  tiff.writeUInt32BE(26, 18);
  tiff.writeUInt32BE(0, 22);
  tiff.writeUInt16BE(2, 26); // GPS IFD
  tiff.writeUInt16BE(0x0000, 28); // GPSVersionID, BYTE, 4
  tiff.writeUInt16BE(1, 30);
  tiff.writeUInt32BE(4, 32);
  tiff.set([2, 3, 0, 0], 36);
  tiff.writeUInt16BE(0x0001, 40); // GPSLatitudeRef, ASCII, 2: 'S'
  tiff.writeUInt16BE(2, 42);
  tiff.writeUInt32BE(2, 44);
  tiff.write('S', 48, 'ascii');
  tiff.writeUInt32BE(0, 52);
  const header = Buffer.alloc(10);
  header.writeUInt16BE(0xffe1, 0);
  header.writeUInt16BE(2 + 6 + tiff.length, 2);
  header.write('Exif\0\0', 4, 'binary');
  return Buffer.concat([jpeg.subarray(0, 2), header, tiff, jpeg.subarray(2)]);
}

/** Whether the JPEG's EXIF first IFD points to a GPS IFD (tag 0x8825). */
export function hasGpsExif(jpeg: Buffer): boolean {
  let offset = 2;
  while (offset + 4 <= jpeg.length && jpeg[offset] === 0xff) {
    const marker = jpeg.readUInt16BE(offset);
    if (marker === 0xffda) return false; // the image data: no metadata segment follows
    const length = jpeg.readUInt16BE(offset + 2);
    if (marker === 0xffe1 && jpeg.toString('binary', offset + 4, offset + 10) === 'Exif\0\0') {
      const tiff = offset + 10;
      const little = jpeg.toString('ascii', tiff, tiff + 2) === 'II';
      const u16 = (at: number) => (little ? jpeg.readUInt16LE(at) : jpeg.readUInt16BE(at));
      const u32 = (at: number) => (little ? jpeg.readUInt32LE(at) : jpeg.readUInt32BE(at));
      const ifd0 = tiff + u32(tiff + 4);
      for (let entry = 0; entry < u16(ifd0); entry += 1) {
        if (u16(ifd0 + 2 + entry * 12) === 0x8825) return true;
      }
    }
    offset += 2 + length;
  }
  return false;
}
