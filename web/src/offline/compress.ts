// 'Compactar Imagens' (SPEC.md sections 4 and 9): every pending photo becomes a JPEG at most 1920 px wide at
// quality 0.7, stamped with when, where and by whom it was taken unless its project turned stamps off (issue 26),
// and the record is marked imagensCompactadas so sync may send it. The camera's original is not kept: its SHA-256
// is, with the record (fotosOriginaisSha256), and goes to the server with it.
import type { FlowDefinition } from '@novus/domain/flows/flow';
import type { RenderOptions } from './photo-render';
import type { PhotoReply, PhotoRequest } from './photo.worker';
import { type LocalColeta, type RecordStore, sha256HexOf } from './records';

export const COMPRESS_TEXTS = {
  done: 'Compactacao concluida com sucesso',
  failed: 'Falha ao compactar imagens',
} as const;

/** One photo compressed (and stamped when `carimbo` has lines): photo-render.ts. */
export type CompressFn = (foto: Blob, options: RenderOptions) => Promise<Blob>;

/** The stamp's lines for a record's photos, or null when its project turned stamps off. */
export type CarimboDe = (flow: FlowDefinition, record: LocalColeta) => readonly string[] | null;

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
  carimboDe: CarimboDe = () => null,
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
    const options: RenderOptions = { keepExif: flow.keepExif, carimbo: carimboDe(flow, record) };
    const fotos: (Blob | null)[] = [];
    const originais: (string | null)[] = [];
    for (const [slot, foto] of record.fotos.entries()) {
      if (foto === null) {
        fotos.push(null);
        originais.push(null);
        continue;
      }
      // The hash taken when the photo was written is the original's; records older than that hash it now.
      originais.push(record.fotosSha256?.[slot] ?? (await sha256HexOf(await foto.arrayBuffer())));
      fotos.push(await compress(foto, options));
      done += 1;
      onProgress({ done, total });
    }
    // Re-read so an edit made meanwhile on the same record is not overwritten by stale fields.
    const current = await records.getByID(flow, record.id);
    if (!current) continue;
    await records.update(flow, {
      ...current,
      fotos,
      fotosOriginaisSha256: originais,
      imagensCompactadas: true,
    });
  }
  return done;
}

/**
 * The compressor of one 'Compactar Imagens': a worker (photo.worker.ts) takes the photos one after another, so the
 * page stays responsive; without OffscreenCanvas (Safari before 16.4) the page compresses them itself. `close`
 * ends the worker.
 */
export function photoCompressor(): { compress: CompressFn; close: () => void } {
  if (typeof Worker === 'undefined' || typeof OffscreenCanvas === 'undefined') {
    return {
      compress: async (foto, options) => (await import('./photo-render')).renderPhoto(foto, options),
      close: () => undefined,
    };
  }
  const worker = new Worker(new URL('./photo.worker.ts', import.meta.url), { type: 'module' });
  const waiting = new Map<number, { resolve: (jpeg: Blob) => void; reject: (error: Error) => void }>();
  let next = 0;
  worker.onmessage = ({ data }: MessageEvent<PhotoReply>) => {
    const pending = waiting.get(data.id);
    waiting.delete(data.id);
    if ('jpeg' in data) pending?.resolve(data.jpeg);
    else pending?.reject(new Error(data.erro));
  };
  worker.onerror = (event) => {
    for (const { reject } of waiting.values())
      reject(new Error(event.message || 'o compressor de fotos parou'));
    waiting.clear();
  };
  return {
    compress: (foto, options) =>
      new Promise((resolve, reject) => {
        next += 1;
        waiting.set(next, { resolve, reject });
        worker.postMessage({ id: next, foto, options } satisfies PhotoRequest);
      }),
    close: () => worker.terminate(),
  };
}
