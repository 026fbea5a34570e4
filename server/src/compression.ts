// Compressed answers (issue 41): a technician's first sync of a zone with 50,000 preloaded points is 28.8 MB of
// JSON, 2.5 MB in brotli. @fastify/compress on each route's onSend; what is compressed already, or must go as it is,
// is left alone (README 'Compressed answers').
import zlib from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * The cheapest of each, measured on a zone list of the sync (14.8 MB, bench/README.md 'Compressed answers'): brotli
 * 1 makes it 1.27 MB in 46 ms, brotli 4 (the plugin's default) 0.99 MB in 143 ms, brotli 11 (zlib's) 0.87 MB in 34 s.
 */
export const BROTLI_QUALITY = 1;
/** Gzip 1: 1.40 MB in 55 ms; gzip 6 (zlib's default) 1.26 MB in 111 ms. */
export const GZIP_LEVEL = 1;
/** Smaller answers (an upload's, an error's) go as they are: compressing them saves less than a packet. */
export const COMPRESSION_THRESHOLD = 1024;

/**
 * Compressed besides what mime-db calls compressible (CSV, KML, JS): JSON, text and XML. Never an event stream (its
 * events would wait in the compressor) nor octet-stream, which may be anything (a PMTiles archive read by ranges).
 */
const COMPRESSIBLE = /^text\/(?!event-stream)|[+/]json(?:;|$)|[+/]xml(?:;|$)/;

/** HTTP_COMPRESSION=0 leaves compression to the reverse proxy (docs/operations.md); on by default. */
export function compressionConfig(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.HTTP_COMPRESSION !== '0';
}

export interface Compression {
  /** The routes added from now on send files as stored: the web build's own .br/.gz copies, tiles, left alone. */
  filesFollow(): void;
}

/**
 * Compresses the answers of the routes added after this, when the client accepts brotli or gzip and the answer is
 * compressible: a stream, or COMPRESSION_THRESHOLD bytes or more; not already encoded (a gzip tile of a basemap package), not a range
 * (206 or Content-Range: ranges count the bytes of the file itself). Photos, zips, spreadsheets and GeoPackages are
 * not of a compressible type; the live map's event stream is written by the route itself (no onSend) and its type
 * is not either. Request bodies are read as sent: only answers are compressed.
 */
export async function registerCompression(app: FastifyInstance, enabled: boolean): Promise<Compression> {
  let files = false;
  if (!enabled) return { filesFollow: () => undefined };
  // Before the plugin's own onRoute hook, which reads the route's `compress` option.
  app.addHook('onRoute', (route) => {
    if (files) route.compress = false;
  });
  await app.register(compress, {
    globalDecompression: false,
    // Brotli first when a client takes both: smaller than gzip and, at quality 1, cheaper.
    encodings: ['br', 'gzip'],
    threshold: COMPRESSION_THRESHOLD,
    customTypes: COMPRESSIBLE,
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } },
    zlibOptions: { level: GZIP_LEVEL },
  });
  return {
    filesFollow: () => {
      files = true;
    },
  };
}
