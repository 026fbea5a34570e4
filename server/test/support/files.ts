// Exported files read back by tools nobody here wrote: GDAL's ogrinfo (KML), PROJ's cs2cs (UTM), Info-ZIP's
// unzip (zips), csv-parse (CSV) and LibreOffice Calc (CSV as a spreadsheet opens it, read back by exceljs), so a
// test checks what a spreadsheet or a GIS would see.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';

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

/** LibreOffice's soffice (Debian's libreoffice-calc-nogui), or undefined where it is not installed. */
export function sofficePath(): string | undefined {
  return ['/usr/bin/soffice', '/usr/lib/libreoffice/program/soffice'].find((file) => fs.existsSync(file));
}

/** Languages of LibreOffice's CSV import: its number and date formats are those of the language's locale. */
export const IDIOMA = { ptBR: 1046, enUS: 1033 } as const;

/**
 * CSV files as a spreadsheet opens them: LibreOffice Calc imports each (`;`, `"`, UTF-8, from line 1, numbers and
 * dates in the language's formats, as Excel in that language does) and saves it as xlsx into `outDir`. One run for
 * all the files, as soffice takes seconds to start, with a profile of its own, so that runs side by side do not
 * share one. The xlsx files' paths, in the order of `files`.
 */
export function spreadsheetConvert(files: readonly string[], idioma: number, outDir: string): string[] {
  const soffice = sofficePath();
  if (!soffice) throw new Error('soffice not found: install libreoffice-calc-nogui (.ci/run does)');
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-soffice-'));
  try {
    execFileSync(
      soffice,
      [
        `-env:UserInstallation=file://${profile}`,
        '--headless',
        `--infilter=CSV:59,34,76,1,,${idioma}`,
        '--convert-to',
        'xlsx',
        '--outdir',
        outDir,
        ...files,
      ],
      {
        env: { ...process.env, ...UTF8, HOME: profile },
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 180_000,
      },
    );
  } finally {
    fs.rmSync(profile, { recursive: true, force: true });
  }
  return files.map((file) => {
    const xlsx = path.join(outDir, `${path.basename(file, path.extname(file))}.xlsx`);
    if (!fs.existsSync(xlsx)) throw new Error(`soffice did not convert ${file}`);
    return xlsx;
  });
}

/** A cell as the spreadsheet holds it: a number, a date (and time), or text. */
export type Celula = { numero: number } | { data: Date } | { texto: string };

/**
 * The first sheet of an xlsx file, read by exceljs: one record per row after the header row, a cell per header
 * (an empty cell is absent). A date cell is the local date and time the spreadsheet shows, given as UTC.
 */
export async function readSheet(xlsx: string): Promise<Record<string, Celula>[]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(xlsx);
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new Error(`${xlsx} has no sheet`);
  const headers: string[] = [];
  sheet.getRow(1).eachCell((cell, column) => {
    headers[column] = String(cell.value);
  });
  const rows: Record<string, Celula>[] = [];
  sheet.eachRow((row, number) => {
    if (number === 1) return;
    const record: Record<string, Celula> = {};
    row.eachCell((cell, column) => {
      const { value } = cell;
      const header = headers[column] ?? String(column);
      if (typeof value === 'number') record[header] = { numero: value };
      else if (value instanceof Date) record[header] = { data: value };
      else if (typeof value === 'string') record[header] = { texto: value };
      else throw new Error(`${xlsx} ${cell.address}: unexpected cell ${JSON.stringify(value)}`);
    });
    rows.push(record);
  });
  return rows;
}
