// The photo stamp's text (issue 26): São Paulo's clock whatever the phone's zone, six decimals and the GPS
// accuracy, names with their accents; and the camera's EXIF copied with Orientation 1 for the flows that keep it.
import fs from 'node:fs';
import path from 'node:path';
import exifReader from 'exif-reader';
import { describe, expect, it } from 'vitest';
import { dataHoraCarimbo, linhasCarimbo } from '../src/offline/carimbo';
import { carimboLayout, exifWithoutOrientation } from '../src/offline/photo-render';

const REALWORLD = path.resolve(import.meta.dirname, '../../../shared/realworld/jpg');

describe('linhasCarimbo', () => {
  const dados = {
    // 26/11/2026 17:03:09 UTC: 14:03:09 in São Paulo (UTC−3, no daylight saving since 2019)
    dataHora: Date.UTC(2026, 10, 26, 17, 3, 9),
    coordenadas: { lat: -25.4350123, lng: -49.2750987 },
    precisao: 4.6,
    tecnico: 'João Conceição',
    projeto: 'Iluminação Curitiba',
    fluxo: 'Uso Mútuo / IP',
  };

  it('says when in São Paulo, where with the accuracy, and who, for which project and flow', () => {
    expect(linhasCarimbo(dados)).toEqual([
      '26/11/2026 14:03:09  Lat -25.435012  Lng -49.275099  ± 5 m',
      'João Conceição · Iluminação Curitiba · Uso Mútuo / IP',
    ]);
  });

  it('reads São Paulo’s clock across midnight and the year’s turn, not the phone’s zone', () => {
    expect(process.env.TZ).not.toBe('America/Sao_Paulo'); // vitest runs in UTC here: the zone must come from us
    expect(dataHoraCarimbo(Date.UTC(2027, 0, 1, 2, 59, 59))).toBe('31/12/2026 23:59:59');
    expect(dataHoraCarimbo(Date.UTC(2026, 0, 5, 3, 0, 0))).toBe('05/01/2026 00:00:00');
  });

  it('says so when the phone gave no accuracy, and rounds a sub-metre one up to 1 m', () => {
    expect(linhasCarimbo({ ...dados, precisao: undefined })[0]).toMatch(/ precisão desconhecida$/);
    expect(linhasCarimbo({ ...dados, precisao: 0.2 })[0]).toMatch(/ ± 1 m$/);
  });

  it('leaves out a blank name instead of drawing an empty separator', () => {
    expect(linhasCarimbo({ ...dados, projeto: '  ' })[1]).toBe('João Conceição · Uso Mútuo / IP');
  });
});

describe('carimboLayout', () => {
  it('sizes the text to the width, so a photo at full phone width stays legible', () => {
    // a 1920 px photo shown 390 px wide: 64 px text is 13 px on screen
    expect(carimboLayout(1920, 2).fonte).toBe(64);
    expect(carimboLayout(200, 2).fonte).toBe(14);
    expect(carimboLayout(1920, 2).altura).toBe(2 * 32 + 2 * 83);
  });
});

/** IFD0's Orientation read by exif-reader (the server's reader) from an APP1 segment. */
function orientationOf(segment: Uint8Array): number | undefined {
  const tiff = Buffer.from(segment.subarray(10));
  const tags = exifReader(Buffer.concat([Buffer.from('Exif\0\0'), tiff]));
  return tags.Image?.Orientation as number | undefined;
}

describe('exifWithoutOrientation', () => {
  const files = fs.readdirSync(REALWORLD).filter((name) => /^orientation__.*_\d\.jpg$/.test(name));

  it.each(files)('%s: the camera’s EXIF, Orientation now 1, the rest byte for byte', (name) => {
    const bytes = new Uint8Array(fs.readFileSync(path.join(REALWORLD, name)));
    const before = Number(/_(\d)\.jpg$/.exec(name)?.[1]);
    const segment = exifWithoutOrientation(bytes);
    expect(segment).not.toBeNull();
    if (!segment) return;
    expect([segment[0], segment[1]]).toEqual([0xff, 0xe1]);
    expect(segment.byteLength).toBe(((segment[2] ?? 0) << 8) + (segment[3] ?? 0) + 2);
    // the original still says N; the copy says 1 and differs from it in that one value only
    const start = Buffer.from(bytes).indexOf(Buffer.from(segment.subarray(0, 16)));
    const original = bytes.subarray(start, start + segment.byteLength);
    expect(orientationOf(original)).toBe(before);
    expect(orientationOf(segment)).toBe(1);
    const differing = segment.filter((byte, index) => byte !== original[index]).length;
    expect(differing).toBeLessThanOrEqual(before === 1 ? 0 : 1);
  });

  it('answers null for a file without EXIF, a PNG and a file cut short, never throwing', () => {
    expect(exifWithoutOrientation(new Uint8Array([0xff, 0xd8, 0xff, 0xda, 0, 2]))).toBeNull();
    expect(exifWithoutOrientation(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toBeNull();
    const cut = new Uint8Array(fs.readFileSync(path.join(REALWORLD, 'corrupted.jpg'))).slice(0, 40);
    expect(() => exifWithoutOrientation(cut)).not.toThrow();
  });
});
