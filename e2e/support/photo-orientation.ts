// How a photo displays, decided as a viewer decides it: the browser decodes it honouring its EXIF orientation, and
// its picture is compared, block by block, with the upright reference. Also what a JPEG's own bytes say: the size
// its pixels are stored in and its EXIF orientation tag.
import type { Page } from '@playwright/test';

/** Blocks across and down the picture that colours are averaged over. */
export const GRID = 8;

/** A photo as a viewer shows it: its size, and the average colour of each of GRID×GRID blocks (RGB, row by row). */
export interface DisplayedPhoto {
  width: number;
  height: number;
  /** The size an <img> shows it at, which must agree with the decoder's. */
  imgWidth: number;
  imgHeight: number;
  blocks: number[];
}

/**
 * Decodes each JPEG (base64) in the page: createImageBitmap and <img>, both with their default EXIF orientation
 * handling, and the picture shrunk to GRID×GRID with high-quality smoothing (an average of each block).
 */
export function displayInPage(
  page: Page,
  jpegs: Record<string, string>,
): Promise<Record<string, DisplayedPhoto>> {
  return page.evaluate(
    async ({ jpegs, grid }) => {
      const shown: Record<string, DisplayedPhoto> = {};
      for (const [name, base64] of Object.entries(jpegs)) {
        const blob = new Blob([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], {
          type: 'image/jpeg',
        });
        const bitmap = await createImageBitmap(blob);
        const canvas = new OffscreenCanvas(grid, grid);
        const context = canvas.getContext('2d');
        if (!context) throw new Error('no 2d context');
        context.imageSmoothingEnabled = true;
        context.imageSmoothingQuality = 'high';
        context.drawImage(bitmap, 0, 0, grid, grid);
        const rgba = context.getImageData(0, 0, grid, grid).data;
        const blocks = [...rgba].filter((_, index) => index % 4 !== 3);
        const img = new Image();
        const url = URL.createObjectURL(blob);
        img.src = url;
        await img.decode();
        URL.revokeObjectURL(url);
        shown[name] = {
          width: bitmap.width,
          height: bitmap.height,
          imgWidth: img.naturalWidth,
          imgHeight: img.naturalHeight,
          blocks,
        };
        bitmap.close();
      }
      return shown;
    },
    { jpegs, grid: GRID },
  );
}

/** Mean difference per colour channel (0–255) between two pictures' blocks, the second turned by `turn`. */
export function blockDistance(a: DisplayedPhoto, b: DisplayedPhoto, turn: Turn = 'none'): number {
  let sum = 0;
  for (let y = 0; y < GRID; y += 1) {
    for (let x = 0; x < GRID; x += 1) {
      const bx = turn === 'mirror' || turn === 'half' ? GRID - 1 - x : x;
      const by = turn === 'flip' || turn === 'half' ? GRID - 1 - y : y;
      for (let channel = 0; channel < 3; channel += 1) {
        sum += Math.abs(
          (a.blocks[(y * GRID + x) * 3 + channel] ?? 0) - (b.blocks[(by * GRID + bx) * 3 + channel] ?? 0),
        );
      }
    }
  }
  return sum / (GRID * GRID * 3);
}

/** The ways a picture can be wrong and keep its width and height (a quarter turn changes them). */
export type Turn = 'none' | 'mirror' | 'flip' | 'half';
export const WRONG_TURNS: readonly Turn[] = ['mirror', 'flip', 'half'];
export const TURN_WORDS: Record<Turn, string> = {
  none: 'as it is',
  mirror: 'mirrored left to right',
  flip: 'mirrored top to bottom',
  half: 'turned half round',
};

/** What a JPEG's bytes say: its stored pixel size (the frame header) and its EXIF orientation tag, if any. */
export interface JpegFacts {
  storedWidth: number;
  storedHeight: number;
  /** The EXIF Orientation tag (1–8), undefined when there is no EXIF or no such tag. */
  orientation: number | undefined;
}

export function jpegFacts(jpeg: Buffer): JpegFacts {
  let orientation: number | undefined;
  let offset = 2;
  while (offset + 4 <= jpeg.length && jpeg[offset] === 0xff) {
    const marker = jpeg.readUInt16BE(offset);
    const length = jpeg.readUInt16BE(offset + 2);
    if (marker === 0xffe1 && jpeg.toString('binary', offset + 4, offset + 10) === 'Exif\0\0') {
      orientation ??= exifOrientation(jpeg, offset + 10);
    }
    // Start of frame (baseline, progressive, ...): not DHT (C4), JPG (C8) or DAC (CC).
    if (marker >= 0xffc0 && marker <= 0xffcf && ![0xffc4, 0xffc8, 0xffcc].includes(marker)) {
      return {
        storedHeight: jpeg.readUInt16BE(offset + 5),
        storedWidth: jpeg.readUInt16BE(offset + 7),
        orientation,
      };
    }
    offset += 2 + length;
  }
  throw new Error('no frame header before the image data');
}

/** The Orientation tag (0x0112) of the first IFD of the TIFF block at `tiff`. */
function exifOrientation(jpeg: Buffer, tiff: number): number | undefined {
  const little = jpeg.toString('ascii', tiff, tiff + 2) === 'II';
  const u16 = (at: number) => (little ? jpeg.readUInt16LE(at) : jpeg.readUInt16BE(at));
  const u32 = (at: number) => (little ? jpeg.readUInt32LE(at) : jpeg.readUInt32BE(at));
  const ifd0 = tiff + u32(tiff + 4);
  for (let entry = 0; entry < u16(ifd0); entry += 1) {
    const at = ifd0 + 2 + entry * 12;
    if (u16(at) === 0x0112) return u16(at + 8);
  }
  return undefined;
}
