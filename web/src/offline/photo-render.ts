// 'Compactar Imagens' for one photo, in one pass (SPEC.md section 9, issue 26): decoded upright (EXIF orientation
// applied), scaled to at most 1920 px wide, the stamp's band drawn over its foot, encoded as JPEG at quality 0.7,
// and the camera's EXIF copied back for the flows that keep it. Runs in photo.worker.ts; where a browser has no
// OffscreenCanvas (Safari before 16.4) the same code runs on the page with a DOM canvas.

/** SPEC.md section 9 caps the width only: a portrait photo keeps its full 1920 px of width. */
export const MAX_FOTO_WIDTH = 1920;
export const FOTO_QUALITY = 0.7;

export interface RenderOptions {
  /** fiscalizacao, LPT Agiltec and Grupo A keep their photos' EXIF (SPEC.md section 9). */
  keepExif: boolean;
  /** The stamp's lines (carimbo.ts); null or absent: no stamp (the project turned it off). */
  carimbo?: readonly string[] | null;
}

type Canvas = OffscreenCanvas | HTMLCanvasElement;
type Context2D = OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D;

/** The size a photo of this size is stored at: at most 1920 px wide, its proportions kept. */
export function storedSize(width: number, height: number): { width: number; height: number } {
  if (width <= MAX_FOTO_WIDTH) return { width, height };
  return { width: MAX_FOTO_WIDTH, height: Math.max(1, Math.round((height * MAX_FOTO_WIDTH) / width)) };
}

/** The band's geometry for a photo this wide: the text about 1/30 of the width, legible on a phone at full width. */
export function carimboLayout(width: number, linhas: number) {
  const fonte = Math.max(14, Math.round(width / 30));
  const margem = Math.round(fonte * 0.5);
  const linha = Math.round(fonte * 1.3);
  return { fonte, margem, linha, altura: margem * 2 + linha * linhas };
}

const FONTE = (tamanho: number) => `${tamanho}px sans-serif`;

/** Draws the band over the foot of a canvas `width`×`height`: black, the lines in white, each shrunk to fit. */
export function desenharCarimbo(
  ctx: Context2D,
  width: number,
  height: number,
  linhas: readonly string[],
): void {
  const { fonte, margem, linha, altura } = carimboLayout(width, linhas.length);
  const topo = height - altura;
  ctx.fillStyle = '#000000';
  ctx.fillRect(0, topo, width, altura);
  ctx.fillStyle = '#ffffff';
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  const largura = width - margem * 2;
  linhas.forEach((texto, index) => {
    ctx.font = FONTE(fonte);
    const medida = ctx.measureText(texto).width;
    if (medida > largura) ctx.font = FONTE(Math.max(8, Math.floor((fonte * largura) / medida)));
    ctx.fillText(texto, margem, topo + margem + linha * index + linha / 2, largura);
  });
}

function makeCanvas(width: number, height: number): Canvas {
  if (typeof OffscreenCanvas !== 'undefined') return new OffscreenCanvas(width, height);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  return canvas;
}

function encode(canvas: Canvas): Promise<Blob> {
  if ('convertToBlob' in canvas) return canvas.convertToBlob({ type: 'image/jpeg', quality: FOTO_QUALITY });
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('O navegador não gerou o JPEG da foto.'))),
      'image/jpeg',
      FOTO_QUALITY,
    ),
  );
}

/** One photo compressed (and stamped): the JPEG to store in place of the camera's. */
export async function renderPhoto(foto: Blob, options: RenderOptions): Promise<Blob> {
  const bitmap = await createImageBitmap(foto, { imageOrientation: 'from-image' });
  try {
    const { width, height } = storedSize(bitmap.width, bitmap.height);
    const canvas = makeCanvas(width, height);
    const ctx = canvas.getContext('2d') as Context2D | null;
    if (!ctx) throw new Error('O navegador não abriu um canvas para a foto.');
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(bitmap, 0, 0, width, height);
    if (options.carimbo && options.carimbo.length > 0) desenharCarimbo(ctx, width, height, options.carimbo);
    const jpeg = await encode(canvas);
    if (!options.keepExif) return jpeg;
    const exif = exifWithoutOrientation(new Uint8Array(await foto.arrayBuffer()));
    if (!exif) return jpeg;
    // The camera's APP1 right after the new file's SOI marker: its time, position and camera, as SPEC 9 keeps them.
    return new Blob([jpeg.slice(0, 2), exif, jpeg.slice(2)], { type: 'image/jpeg' });
  } finally {
    bitmap.close();
  }
}

const SOI = 0xffd8;
const SOS = 0xffda;
const APP1 = 0xffe1;
const EXIF_HEADER = 0x45786966; // 'Exif'
const ORIENTATION = 0x0112;

/**
 * A copy of a JPEG's EXIF segment (APP1 'Exif', marker and length included) with its Orientation set to 1: the
 * pixels are drawn upright already, and a viewer must not turn them again. null when the file has none, or when
 * the segment is not one this can read (the photo is then stored without EXIF rather than with a broken one).
 */
export function exifWithoutOrientation(jpeg: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> | null {
  const view = new DataView(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength);
  if (jpeg.byteLength < 4 || view.getUint16(0) !== SOI) return null;
  let offset = 2;
  while (offset + 4 <= jpeg.byteLength) {
    const marker = view.getUint16(offset);
    if (marker === SOS || (marker & 0xff00) !== 0xff00) return null;
    const length = view.getUint16(offset + 2);
    const end = offset + 2 + length;
    if (length < 2 || end > jpeg.byteLength) return null;
    if (marker === APP1 && length >= 16 && view.getUint32(offset + 4) === EXIF_HEADER) {
      const segment = jpeg.slice(offset, end);
      return resetOrientation(segment) ? segment : null;
    }
    offset = end;
  }
  return null;
}

/** Sets IFD0's Orientation to 1 in an APP1 segment; false when its TIFF structure does not hold together. */
function resetOrientation(segment: Uint8Array): boolean {
  const view = new DataView(segment.buffer, segment.byteOffset, segment.byteLength);
  const tiff = 10; // marker (2) + length (2) + 'Exif\0\0' (6)
  const order = view.getUint16(tiff);
  if (order !== 0x4949 && order !== 0x4d4d) return false;
  const little = order === 0x4949;
  if (view.getUint16(tiff + 2, little) !== 42) return false;
  const ifd0 = tiff + view.getUint32(tiff + 4, little);
  if (ifd0 + 2 > segment.byteLength) return false;
  const entries = view.getUint16(ifd0, little);
  for (let index = 0; index < entries; index += 1) {
    const entry = ifd0 + 2 + index * 12;
    if (entry + 12 > segment.byteLength) return false;
    if (view.getUint16(entry, little) !== ORIENTATION) continue;
    // SHORT, one value, kept in the entry itself
    if (view.getUint16(entry + 2, little) !== 3 || view.getUint32(entry + 4, little) !== 1) return false;
    view.setUint16(entry + 8, 1, little);
    return true;
  }
  return true;
}
