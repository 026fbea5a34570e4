// Writes the PWA icons (a white "N" on the theme colour) as real PNG files into web/public.
// Run once with `node web/scripts/generate-icons.mjs`; the PNGs are committed.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const THEME = [0x15, 0x65, 0xc0];
const WHITE = [0xff, 0xff, 0xff];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** True where the letter N is drawn; the glyph sits inside the central 60 % (maskable safe zone). */
function inGlyph(x, y, size) {
  const left = size * 0.28;
  const right = size * 0.72;
  const top = size * 0.26;
  const bottom = size * 0.74;
  const stroke = size * 0.1;
  if (y < top || y > bottom) return false;
  if (x >= left && x <= left + stroke) return true;
  if (x >= right - stroke && x <= right) return true;
  // diagonal from top-left to bottom-right
  const t = (y - top) / (bottom - top);
  const cx = left + stroke / 2 + t * (right - left - stroke);
  return Math.abs(x - cx) <= stroke * 0.6;
}

function png(size) {
  const raw = Buffer.alloc((size * 3 + 1) * size);
  for (let y = 0; y < size; y++) {
    const row = y * (size * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      const [r, g, b] = inGlyph(x, y, size) ? WHITE : THEME;
      raw[row + 1 + x * 3] = r;
      raw[row + 2 + x * 3] = g;
      raw[row + 3 + x * 3] = b;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  ihdr[10] = 0;
  ihdr[11] = 0;
  ihdr[12] = 0;
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const outDir = new URL('../public/', import.meta.url);
for (const size of [192, 512]) writeFileSync(new URL(`pwa-${size}x${size}.png`, outDir), png(size));
writeFileSync(new URL('apple-touch-icon.png', outDir), png(180));
console.log('icons written');
