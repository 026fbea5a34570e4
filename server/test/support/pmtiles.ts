// A small PMTiles v3 writer for tests (issue 23): basemap packages made over a Brazilian zone, with tiles a test
// can recognise, and broken ones (no tiles) the server must refuse. The format is the PMTiles spec v3: a 127-byte
// header, the root directory (varint-encoded: delta tile ids, run lengths, lengths, offsets), the JSON metadata,
// leaf directories when the root would pass 16 KiB, then the tile data. Tile ids come from the `pmtiles` package
// (the Hilbert order its reader uses). Only node:zlib and pmtiles: the e2e tests import this file by path.
import zlib from 'node:zlib';
import { zxyToTileId } from 'pmtiles';

export type PmtilesTileType = 'png' | 'jpg' | 'webp' | 'avif' | 'mvt';

/** One tile of an archive: its address and its bytes (for `mvt`, the uncompressed vector tile). */
export interface PmtilesTile {
  z: number;
  x: number;
  y: number;
  data: Uint8Array;
}

export interface WritePmtilesOptions {
  tiles: PmtilesTile[];
  tileType: PmtilesTileType;
  /** Defaults to the smallest and largest zoom of the tiles (0 when there are none). */
  minZoom?: number;
  maxZoom?: number;
  /** [west, south, east, north] in degrees; defaults to the whole world. */
  bounds?: [number, number, number, number];
  /** The archive's JSON metadata (name, attribution, vector_layers…). */
  metadata?: Record<string, unknown>;
  /** Directories and metadata: gzip (what most tools write, the default) or none. */
  internalCompression?: 'none' | 'gzip';
  /** Tile bytes: gzip (usual for mvt; the writer compresses them) or none (the default). */
  tileCompression?: 'none' | 'gzip';
  /** The root directory's largest size before leaf directories are used (the spec's 16 KiB less the header). */
  maxRootBytes?: number;
}

const TILE_TYPE: Record<PmtilesTileType, number> = { mvt: 1, png: 2, jpg: 3, webp: 4, avif: 5 };
const COMPRESSION = { none: 1, gzip: 2 } as const;
const HEADER_BYTES = 127;

interface DirEntry {
  tileId: number;
  offset: number;
  length: number;
  runLength: number;
}

function writeVarint(out: number[], value: number): void {
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

function serializeDirectory(entries: DirEntry[], compression: 'none' | 'gzip'): Uint8Array {
  const out: number[] = [];
  writeVarint(out, entries.length);
  let last = 0;
  for (const e of entries) {
    writeVarint(out, e.tileId - last);
    last = e.tileId;
  }
  for (const e of entries) writeVarint(out, e.runLength);
  for (const e of entries) writeVarint(out, e.length);
  entries.forEach((e, i) => {
    const prev = entries[i - 1];
    if (prev && e.offset === prev.offset + prev.length) writeVarint(out, 0);
    else writeVarint(out, e.offset + 1);
  });
  return compress(Uint8Array.from(out), compression);
}

function compress(bytes: Uint8Array, compression: 'none' | 'gzip'): Uint8Array {
  return compression === 'gzip' ? new Uint8Array(zlib.gzipSync(bytes)) : bytes;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const total = parts.reduce((sum, p) => sum + p.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The root directory and the leaf directories (empty when the root holds every entry). */
function buildDirectories(
  entries: DirEntry[],
  compression: 'none' | 'gzip',
  maxRootBytes: number,
): { root: Uint8Array; leaves: Uint8Array } {
  const root = serializeDirectory(entries, compression);
  if (root.length <= maxRootBytes) return { root, leaves: new Uint8Array(0) };
  for (let leafSize = 4096; ; leafSize *= 2) {
    const rootEntries: DirEntry[] = [];
    const leaves: Uint8Array[] = [];
    let offset = 0;
    for (let i = 0; i < entries.length; i += leafSize) {
      const chunk = entries.slice(i, i + leafSize);
      const leaf = serializeDirectory(chunk, compression);
      rootEntries.push({ tileId: chunk[0]?.tileId ?? 0, offset, length: leaf.length, runLength: 0 });
      leaves.push(leaf);
      offset += leaf.length;
    }
    const newRoot = serializeDirectory(rootEntries, compression);
    if (newRoot.length <= maxRootBytes) return { root: newRoot, leaves: concat(leaves) };
  }
}

function setUint64(view: DataView, at: number, value: number): void {
  view.setBigUint64(at, BigInt(value), true);
}

/**
 * A PMTiles v3 archive of the tiles, whole in memory (tests' sizes). Identical tiles are stored once and
 * consecutive ones sharing bytes become one run, as real writers do.
 */
export function writePmtiles(options: WritePmtilesOptions): Uint8Array {
  const internal = options.internalCompression ?? 'gzip';
  const tileCompression = options.tileCompression ?? 'none';
  const byId = new Map<number, PmtilesTile>();
  for (const t of options.tiles) byId.set(zxyToTileId(t.z, t.x, t.y), t);

  const contents = new Map<string, { offset: number; length: number }>();
  const data: Uint8Array[] = [];
  let dataLength = 0;
  const entries: DirEntry[] = [];
  for (const [id, tile] of [...byId].sort((a, b) => a[0] - b[0])) {
    const bytes = compress(tile.data, tileCompression);
    const key = Buffer.from(bytes).toString('base64');
    let stored = contents.get(key);
    if (!stored) {
      stored = { offset: dataLength, length: bytes.length };
      contents.set(key, stored);
      data.push(bytes);
      dataLength += bytes.length;
    }
    const last = entries.at(-1);
    if (last && last.offset === stored.offset && last.tileId + last.runLength === id) last.runLength += 1;
    else entries.push({ tileId: id, offset: stored.offset, length: stored.length, runLength: 1 });
  }
  const clustered = entries.every((e, i) => e.offset >= (entries[i - 1]?.offset ?? 0));

  const { root, leaves } = buildDirectories(entries, internal, options.maxRootBytes ?? 16_384 - HEADER_BYTES);
  const metadata = compress(new TextEncoder().encode(JSON.stringify(options.metadata ?? {})), internal);
  const tileData = concat(data);

  const zooms = options.tiles.map((t) => t.z);
  const minZoom = options.minZoom ?? (zooms.length ? Math.min(...zooms) : 0);
  const maxZoom = options.maxZoom ?? (zooms.length ? Math.max(...zooms) : 0);
  const [west, south, east, north] = options.bounds ?? [-180, -85.0511287, 180, 85.0511287];

  const header = new Uint8Array(HEADER_BYTES);
  const view = new DataView(header.buffer);
  header.set(new TextEncoder().encode('PMTiles'), 0);
  header[7] = 3;
  const rootOffset = HEADER_BYTES;
  const metadataOffset = rootOffset + root.length;
  const leafOffset = metadataOffset + metadata.length;
  const tileDataOffset = leafOffset + leaves.length;
  setUint64(view, 8, rootOffset);
  setUint64(view, 16, root.length);
  setUint64(view, 24, metadataOffset);
  setUint64(view, 32, metadata.length);
  setUint64(view, 40, leafOffset);
  setUint64(view, 48, leaves.length);
  setUint64(view, 56, tileDataOffset);
  setUint64(view, 64, tileData.length);
  setUint64(view, 72, byId.size);
  setUint64(view, 80, entries.length);
  setUint64(view, 88, contents.size);
  header[96] = clustered ? 1 : 0;
  header[97] = COMPRESSION[internal];
  header[98] = COMPRESSION[tileCompression];
  header[99] = TILE_TYPE[options.tileType];
  header[100] = minZoom;
  header[101] = maxZoom;
  view.setInt32(102, Math.round(west * 1e7), true);
  view.setInt32(106, Math.round(south * 1e7), true);
  view.setInt32(110, Math.round(east * 1e7), true);
  view.setInt32(114, Math.round(north * 1e7), true);
  header[118] = minZoom;
  view.setInt32(119, Math.round(((west + east) / 2) * 1e7), true);
  view.setInt32(123, Math.round(((south + north) / 2) * 1e7), true);

  return concat([header, root, metadata, leaves, tileData]);
}

// ---- tiles over an area ----

/** The x and y range of the tiles at zoom `z` covering [west, south, east, north] (Web Mercator, XYZ rows). */
export function tileRange(
  bbox: [number, number, number, number],
  z: number,
): { minX: number; maxX: number; minY: number; maxY: number } {
  const [west, south, east, north] = bbox;
  const n = 2 ** z;
  const clamp = (v: number) => Math.min(n - 1, Math.max(0, v));
  const x = (lon: number) => clamp(Math.floor(((lon + 180) / 360) * n));
  const y = (lat: number) => {
    const r = (Math.max(-85.0511287, Math.min(85.0511287, lat)) * Math.PI) / 180;
    return clamp(Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n));
  };
  return { minX: x(west), maxX: x(east), minY: y(north), maxY: y(south) };
}

/**
 * The tiles covering the bbox at each zoom, with their bytes from `data` (by default a solid PNG whose colour
 * tells the zoom apart: see `zoomColour`).
 */
export function tilesOverBbox(
  bbox: [number, number, number, number],
  zooms: number[],
  data: (z: number, x: number, y: number) => Uint8Array = (z) => solidPng(zoomColour(z)),
): PmtilesTile[] {
  const tiles: PmtilesTile[] = [];
  const cache = new Map<string, Uint8Array>();
  for (const z of zooms) {
    const { minX, maxX, minY, maxY } = tileRange(bbox, z);
    for (let x = minX; x <= maxX; x++)
      for (let y = minY; y <= maxY; y++) {
        const bytes = data(z, x, y);
        const key = Buffer.from(bytes).toString('base64');
        const shared = cache.get(key) ?? bytes;
        cache.set(key, shared);
        tiles.push({ z, x, y, data: shared });
      }
  }
  return tiles;
}

/** Around the zones of docs/samples/zoneamento-curitiba.kml (the tests' projects): [west, south, east, north]. */
export const CURITIBA_BBOX: [number, number, number, number] = [-49.29, -25.45, -49.24, -25.42];

/** A zone of Ilhabela (SP), the Brazilian place the other realworld tests use: [west, south, east, north]. */
export const ILHABELA_BBOX: [number, number, number, number] = [-45.37, -23.79, -45.33, -23.76];

/** A distinct, saturated colour per zoom (0–22), so a screenshot tells which zoom's tile is drawn. */
export function zoomColour(z: number): [number, number, number] {
  const palette: [number, number, number][] = [
    [230, 25, 75],
    [60, 180, 75],
    [255, 225, 25],
    [0, 130, 200],
    [245, 130, 48],
    [145, 30, 180],
    [70, 240, 240],
    [240, 50, 230],
  ];
  return palette[z % palette.length] ?? [0, 0, 0];
}

// ---- PNG ----

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + body.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, body.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(body, 8);
  view.setUint32(8 + body.length, crc32(out.subarray(4, 8 + body.length)));
  return out;
}

/** An RGB PNG of `size`×`size` pixels drawn by `pixel(x, y)`. */
export function png(size: number, pixel: (x: number, y: number) => [number, number, number]): Uint8Array {
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, size);
  view.setUint32(4, size);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter, no interlace
  const raw = new Uint8Array(size * (1 + size * 3));
  for (let y = 0; y < size; y++) {
    const row = y * (1 + size * 3);
    raw[row] = 0;
    for (let x = 0; x < size; x++) raw.set(pixel(x, y), row + 1 + x * 3);
  }
  const signature = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return concat([
    signature,
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', new Uint8Array(zlib.deflateSync(raw))),
    pngChunk('IEND', new Uint8Array(0)),
  ]);
}

/** A PNG tile of one colour (256 px by default). */
export function solidPng(rgb: [number, number, number], size = 256): Uint8Array {
  return png(size, () => rgb);
}

/** A PNG tile of one colour crossed by a grid of `line` every 32 px (a street-like pattern a screenshot can see). */
export function gridPng(
  rgb: [number, number, number],
  line: [number, number, number],
  size = 256,
): Uint8Array {
  return png(size, (x, y) => (x % 32 === 0 || y % 32 === 0 ? line : rgb));
}
