// 'Compactar Imagens' (SPEC.md sections 4 and 9): every pending photo becomes a JPEG at most 1920 px wide at
// quality 0.7, and the record is marked imagensCompactadas so sync may send it.
import type { FlowDefinition } from '@novus/domain/flows/flow';
import type { RecordStore } from './records';

export const COMPRESS_TEXTS = {
  done: 'Compactacao concluida com sucesso',
  failed: 'Falha ao compactar imagens',
} as const;

export const COMPRESS_OPTIONS = { initialQuality: 0.7, useWebWorker: true } as const;

/** SPEC.md section 9 caps the width only: a portrait photo keeps its full 1920 px of width. */
export const MAX_FOTO_WIDTH = 1920;

interface PhotoSize {
  width: number;
  height: number;
}

/**
 * The maxWidthOrHeight to hand browser-image-compression, which can only cap the longer side: the height a portrait
 * photo will have once 1920 px wide, or 1920 for a landscape one. undefined when the photo is narrow enough to keep.
 */
export function maxWidthOrHeightFor({ width, height }: PhotoSize): number | undefined {
  if (width <= MAX_FOTO_WIDTH) return undefined;
  return Math.max(MAX_FOTO_WIDTH, Math.round((height * MAX_FOTO_WIDTH) / width));
}

/** keepExif: fiscalizacao, LPT Agiltec and Grupo A keep their photos' EXIF (SPEC.md section 9). */
export type CompressFn = (foto: Blob, options: { keepExif: boolean }) => Promise<Blob>;

export interface CompressProgress {
  done: number;
  total: number;
}

/** 'x de y' as the home shows it. */
export function progressText({ done, total }: CompressProgress): string {
  return `${done} de ${total}`;
}

/** Compresses every uncompressed photo of every flow; returns how many photos it compressed. */
export async function compressAll(
  records: RecordStore,
  flows: readonly FlowDefinition[],
  compress: CompressFn,
  onProgress: (progress: CompressProgress) => void = () => undefined,
): Promise<number> {
  const work = [];
  for (const flow of flows) {
    for (const record of await records.getAll(flow)) {
      if (record.sincronizadoEm || record.imagensCompactadas) continue;
      work.push({ flow, record });
    }
  }
  const total = work.reduce((sum, { record }) => sum + record.fotos.filter(Boolean).length, 0);
  let done = 0;
  onProgress({ done, total });
  for (const { flow, record } of work) {
    const fotos: (Blob | null)[] = [];
    for (const foto of record.fotos) {
      if (foto === null) {
        fotos.push(null);
        continue;
      }
      fotos.push(await compress(foto, { keepExif: flow.keepExif }));
      done += 1;
      onProgress({ done, total });
    }
    // Re-read so an edit made meanwhile on the same record is not overwritten by stale fields.
    const current = await records.getByID(flow, record.id);
    if (!current) continue;
    await records.update(flow, { ...current, fotos, imagensCompactadas: true });
  }
  return done;
}

/** browser-image-compression, loaded on first use so the home stays light; its worker script is ours, not a CDN's. */
export async function browserCompressor(): Promise<CompressFn> {
  const [{ default: imageCompression }, { default: libURL }] = await Promise.all([
    import('browser-image-compression'),
    import('browser-image-compression/dist/browser-image-compression.js?url'),
  ]);
  return async (foto, { keepExif }) => {
    const file =
      foto instanceof File ? foto : new File([foto], 'foto.jpg', { type: foto.type || 'image/jpeg' });
    // Decoded as the library decodes it (EXIF orientation applied), so width means the side it will scale.
    const bitmap = await createImageBitmap(file);
    const maxWidthOrHeight = maxWidthOrHeightFor(bitmap);
    bitmap.close();
    return imageCompression(file, {
      ...COMPRESS_OPTIONS,
      maxWidthOrHeight,
      fileType: 'image/jpeg',
      preserveExif: keepExif,
      libURL,
    });
  };
}
