// 'Compactar Imagens' off the main thread: each message is one photo to compress (and stamp), answered with its
// JPEG or the error's text. This file runs only as a dedicated worker (photoCompressor creates it).
import { type RenderOptions, renderPhoto } from './photo-render';

export interface PhotoRequest {
  id: number;
  foto: Blob;
  options: RenderOptions;
}

export type PhotoReply = { id: number; jpeg: Blob } | { id: number; erro: string };

const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = async ({ data: { id, foto, options } }: MessageEvent<PhotoRequest>) => {
  try {
    scope.postMessage({ id, jpeg: await renderPhoto(foto, options) } satisfies PhotoReply);
  } catch (error) {
    const erro = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    scope.postMessage({ id, erro } satisfies PhotoReply);
  }
};
