// The photo stamp as the app draws it (issue 26), for a journey to compare a server photo's band with: the app's
// own carimbo.ts and photo-render.ts bundled for the page (esbuild, the bundler Vite already brings), so the band
// the test renders from the server's record comes from the same code, fonts and canvas as the phone's.
import path from 'node:path';
import type { BrowserContext } from '@playwright/test';
import { build } from 'esbuild';

const ENTRY = `
import { linhasCarimbo } from './carimbo';
import { carimboLayout, desenharCarimbo } from './photo-render';
window.novusCarimbo = { linhasCarimbo, carimboLayout, desenharCarimbo };
`;

let bundled: Promise<string> | undefined;

/** The stamp's code as one script for `page.addScriptTag`. */
export function carimboScript(): Promise<string> {
  bundled ??= build({
    stdin: {
      contents: ENTRY,
      resolveDir: path.resolve(import.meta.dirname, '../../web/src/offline'),
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'iife',
    target: 'es2022',
  }).then((result) => result.outputFiles[0]?.text ?? '');
  return bundled;
}

export interface StampRecord {
  dataHora: number;
  coordenadas: { lat: number; lng: number };
  precisao?: number;
  tecnico: string;
  projeto: string;
  fluxo: string;
}

export interface BandComparison {
  /** The photo's size as the browser decodes it. */
  width: number;
  height: number;
  /** The stamp's lines drawn. */
  linhas: string[];
  /**
   * The largest mean difference (0–255, grey) over the band's tiles between the photo and the stamp rendered from
   * each record given: a tile holding a wrong digit differs by far more than JPEG's blur of the right one.
   */
  worstTile: number[];
  /** The mean grey of the band's area in the photo (a black band with white text stays dark). */
  bandMean: number;
}

/**
 * Compares the foot of a JPEG (base64) with the bands the app would draw for each record, in a blank page of the
 * phone's browser (the app's own pages allow no inline script).
 */
export async function compareBand(
  context: BrowserContext,
  jpeg: string,
  records: StampRecord[],
): Promise<BandComparison> {
  const page = await context.newPage();
  await page.addScriptTag({ content: await carimboScript() });
  const comparison = await page.evaluate(
    async ({ jpeg, records }) => {
      type Api = {
        linhasCarimbo: (record: unknown) => string[];
        carimboLayout: (width: number, linhas: number) => { altura: number };
        desenharCarimbo: (ctx: OffscreenCanvasRenderingContext2D, w: number, h: number, l: string[]) => void;
      };
      const api = (window as unknown as { novusCarimbo: Api }).novusCarimbo;
      const blob = new Blob([Uint8Array.from(atob(jpeg), (c) => c.charCodeAt(0))], { type: 'image/jpeg' });
      const bitmap = await createImageBitmap(blob);
      const { width, height } = bitmap;
      const grey = (canvas: OffscreenCanvas, top: number, rows: number) => {
        const data =
          canvas.getContext('2d')?.getImageData(0, top, width, rows).data ?? new Uint8ClampedArray();
        const out = new Float32Array(width * rows);
        for (let index = 0; index < out.length; index += 1) {
          out[index] =
            (data[index * 4] ?? 0) * 0.299 +
            (data[index * 4 + 1] ?? 0) * 0.587 +
            (data[index * 4 + 2] ?? 0) * 0.114;
        }
        return out;
      };
      const photo = new OffscreenCanvas(width, height);
      photo.getContext('2d')?.drawImage(bitmap, 0, 0);
      const linhas = api.linhasCarimbo(records[0]);
      const { altura } = api.carimboLayout(width, linhas.length);
      const seen = grey(photo, height - altura, altura);
      const bandMean = seen.reduce((sum, value) => sum + value, 0) / seen.length;
      const TILE = 16;
      const worstTile = records.map((record) => {
        const canvas = new OffscreenCanvas(width, height);
        const ctx = canvas.getContext('2d');
        if (!ctx) throw new Error('no 2d context');
        api.desenharCarimbo(ctx, width, height, api.linhasCarimbo(record));
        const drawn = grey(canvas, height - altura, altura);
        let worst = 0;
        for (let top = 0; top < altura; top += TILE) {
          for (let left = 0; left < width; left += TILE) {
            let sum = 0;
            let count = 0;
            for (let y = top; y < Math.min(altura, top + TILE); y += 1) {
              for (let x = left; x < Math.min(width, left + TILE); x += 1) {
                sum += Math.abs((seen[y * width + x] ?? 0) - (drawn[y * width + x] ?? 0));
                count += 1;
              }
            }
            worst = Math.max(worst, sum / count);
          }
        }
        return worst;
      });
      bitmap.close();
      return { width, height, linhas, worstTile, bandMean };
    },
    { jpeg, records },
  );
  await page.close();
  return comparison;
}
