// Exported files read back by tools nobody here wrote: GDAL's ogrinfo (KML), PROJ's cs2cs (UTM), Info-ZIP's
// unzip (zips) and csv-parse (CSV), so a test checks what a spreadsheet or a GIS would see.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';

const UTF8 = { LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' };

/** A temporary directory for the files a test hands to the tools; `remove` when the file is done. */
export interface Scratch {
  /** Writes the bytes under `name` and returns the file's path. */
  write(name: string, bytes: Buffer | string): string;
  remove(): void;
}

export function createScratch(): Scratch {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-export-'));
  return {
    write(name, bytes) {
      const file = path.join(dir, name);
      fs.writeFileSync(file, bytes);
      return file;
    },
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

function run(command: string, args: string[], input?: string): string {
  return execFileSync(command, args, {
    encoding: 'utf8',
    env: { ...process.env, ...UTF8 },
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(input === undefined ? {} : { input }),
  });
}

/** The layers GDAL finds in a KML file, each with its feature count, in the file's order. */
export function ogrLayers(file: string): { name: string; features: number }[] {
  const out = run('/usr/bin/ogrinfo', ['-ro', '-so', '-al', file]);
  const layers: { name: string; features: number }[] = [];
  for (const line of out.split('\n')) {
    const name = /^Layer name: (.*)$/.exec(line);
    if (name) layers.push({ name: name[1] ?? '', features: Number.NaN });
    const count = /^Feature Count: (\d+)$/.exec(line);
    const last = layers.at(-1);
    if (count && last) last.features = Number(count[1]);
  }
  return layers;
}

/** The features of one layer as GDAL reads them: their attributes by name (ExtendedData) and their point. */
export function ogrFeatures(file: string, layer: string): Record<string, string>[] {
  const out = run('/usr/bin/ogrinfo', ['-ro', '-q', file, layer]);
  const features: Record<string, string>[] = [];
  for (const line of out.split('\n')) {
    if (/^OGRFeature\(/.test(line)) features.push({});
    const current = features.at(-1);
    if (!current) continue;
    const attribute = /^ {2}(\S+) \([A-Za-z]+\) = (.*)$/.exec(line);
    if (attribute) current[attribute[1] ?? ''] = attribute[2] ?? '';
    const point = /^ {2}POINT \((.*)\)$/.exec(line);
    if (point) current.POINT = point[1] ?? '';
  }
  return features;
}

/** SIRGAS 2000 / UTM {fuso}S easting and northing of each lat/lng, as PROJ computes them. */
export function cs2csUtm(points: readonly { lat: number; lng: number }[], fuso: number): [number, number][] {
  const input = points.map((point) => `${point.lat} ${point.lng}`).join('\n');
  const out = run('/usr/bin/cs2cs', ['EPSG:4326', `EPSG:${31960 + fuso}`, '-f', '%.3f'], `${input}\n`);
  return out
    .trim()
    .split('\n')
    .map((line) => {
      const [easting, northing] = line.trim().split(/\s+/).map(Number);
      return [easting ?? Number.NaN, northing ?? Number.NaN];
    });
}

/** The entries `unzip -l` lists: name and uncompressed size. */
export function unzipList(file: string): { name: string; size: number }[] {
  const out = run('/usr/bin/unzip', ['-l', file]);
  const lines = out.split('\n');
  const first = lines.findIndex((line) => /^-{4,}/.test(line.trim()));
  const last = lines.findIndex((line, index) => index > first && /^-{4,}/.test(line.trim()));
  return lines.slice(first + 1, last).map((line) => {
    const entry = /^\s*(\d+)\s+\S+\s+\S+\s+(.*)$/.exec(line);
    if (!entry) throw new Error(`unexpected unzip -l line: ${line}`);
    return { name: entry[2] ?? '', size: Number(entry[1]) };
  });
}

/** The bytes of one entry (`unzip -p`). */
export function unzipEntry(file: string, name: string): Buffer {
  return execFileSync('/usr/bin/unzip', ['-p', file, name], { env: { ...process.env, ...UTF8 } });
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export interface ParsedCsv {
  /** Whether the bytes start with the UTF-8 byte order mark. */
  bom: boolean;
  headers: string[];
  rows: Record<string, string>[];
}

/** A `;` CSV as a spreadsheet would read it: csv-parse with the BOM stripped and the header row as names. */
export function parseCsv(bytes: Buffer): ParsedCsv {
  const options = { bom: true, delimiter: ';' } as const;
  const [headers = []] = parse(bytes, { ...options, to_line: 1 });
  const rows = parse<Record<string, string>>(bytes, { ...options, columns: true });
  return { bom: bytes.subarray(0, 3).equals(BOM), headers, rows };
}
