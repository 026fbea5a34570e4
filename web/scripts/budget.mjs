// After `vite build` and precompress: the gzip weight of what a first visit (/login, the home) must fetch before it
// shows anything: the entry script of index.html, its modulepreload links and its stylesheets. Prints each file and
// the total, and fails when the total passes the budget, so the first page can only get lighter.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

/**
 * What a mid-range phone parses in about a second (issue 13). `npm test` (test:e2e, after the build) fails above
 * it; `npm start` never stops on it. The login and the home are in the entry's static imports (app/AppRoutes.tsx);
 * the device's code (Dexie, the registry, zod) and every other screen load beside or after them.
 */
const BUDGET_KB = 170;

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', process.argv[2] ?? 'dist');
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');

const critical = [];
for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
  const attr = (name) => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
  const rel = attr('rel');
  const url = tag.startsWith('<script')
    ? attr('src')
    : rel === 'modulepreload' || rel === 'stylesheet'
      ? attr('href')
      : undefined;
  if (url && url.startsWith('/') && !critical.includes(url)) critical.push(url);
}

const gzipSize = (file) => {
  const gz = `${file}.gz`;
  if (fs.existsSync(gz)) return fs.statSync(gz).size;
  return zlib.gzipSync(fs.readFileSync(file), { level: zlib.constants.Z_BEST_COMPRESSION }).length;
};

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
let total = 0;
for (const url of critical) {
  const size = gzipSize(path.join(dist, url));
  total += size;
  console.log(`budget: ${kb(size).padStart(9)}  ${url}`);
}
console.log(`budget: ${kb(total).padStart(9)}  first page, gzip (fails above the budget of ${BUDGET_KB} KB)`);
if (total > BUDGET_KB * 1024) {
  console.error(`budget: the first page weighs ${kb(total)} gzip, over the budget of ${BUDGET_KB} KB`);
  process.exit(1);
}
