// After `vite build`: a brotli (.br) and a gzip (.gz) copy beside each text asset of dist, made once here at their
// best levels, so the server sends the right one as it is (@fastify/static preCompressed) instead of compressing
// on each request or not at all. A copy that would not be smaller is not written.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', process.argv[2] ?? 'dist');
const TEXT = /\.(js|mjs|css|html|json|webmanifest|svg|txt)$/;

let files = 0;
let before = 0;
let after = 0;
for (const entry of fs.readdirSync(dist, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !TEXT.test(entry.name)) continue;
  const file = path.join(entry.parentPath ?? entry.path, entry.name);
  const bytes = fs.readFileSync(file);
  const brotli = zlib.brotliCompressSync(bytes, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
  const gzip = zlib.gzipSync(bytes, { level: zlib.constants.Z_BEST_COMPRESSION });
  if (brotli.length < bytes.length) fs.writeFileSync(`${file}.br`, brotli);
  if (gzip.length < bytes.length) fs.writeFileSync(`${file}.gz`, gzip);
  files += 1;
  before += bytes.length;
  after += Math.min(brotli.length, bytes.length);
}
const kb = (n) => `${Math.round(n / 1024)} KB`;
console.log(`precompress: ${files} files, ${kb(before)} → ${kb(after)} with brotli (and .gz for the rest)`);
