// The files of an export as byte streams read with backpressure: CSV (PostgreSQL writes it itself with COPY; on
// PGlite csv-stringify writes the cursor's rows), KML (placemarks written by the query), and zips (archiver).
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipArchive } from 'archiver';
import { stringify } from 'csv-stringify';
import type { Database } from '../../db/database.ts';
import { type Chave, escapeXml, inline, type Partes, type Query } from './queries.ts';

/** Excel (pt-BR) reads a CSV as UTF-8 only when it starts with this mark. */
const BOM = '\uFEFF';

/** Rows per part of a CSV written in parts (about 10 MB of the units CSV). */
export const PARTE = 50_000;

/** Rows per part of a KML: a placemark is three times a CSV row, and a part must fit in AHEAD_BYTES. */
export const PARTE_KML = 20_000;

const CSV = "FORMAT csv, DELIMITER ';', ENCODING 'UTF8'";

/**
 * `;`-separated, header row, quoted only where a value holds `;`, a quote or a line break. A query in parts
 * (registrosQuery) is written on PostgreSQL one part while the part before is sent: two backends, and so two cores,
 * at work on one file, in order, with at most one part held in memory.
 */
export function csvStream(
  db: Database,
  query: Query & { partes?: Partes },
  headers: readonly string[],
  parte = PARTE,
): Readable {
  if (db.copyOut) {
    const copyOut = db.copyOut.bind(db);
    const { partes } = query;
    return Readable.from(
      (async function* () {
        yield BOM;
        if (!partes) yield* await copyOut(inline(query), `${CSV}, HEADER true`);
        else {
          yield* inParts(db, partes, parte, (part, first, ahead) =>
            copyOut(inline(part), first ? `${CSV}, HEADER true` : CSV, ahead),
          );
        }
      })(),
    );
  }
  const out = new PassThrough();
  const csv = stringify({ delimiter: ';', header: true, columns: [...headers], cast: { boolean: String } });
  out.write(BOM);
  void pipeline(
    Readable.from(
      (async function* () {
        for await (const rows of db.stream<Record<string, unknown>>(query.sql, query.params)) yield* rows;
      })(),
    ),
    csv,
    out,
  ).catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}

/**
 * How much of a part is read ahead before its COPY waits: a whole part of the CSV (about 10 MB) or the KML (its
 * parts are smaller), so that the second backend is not held up while the part before is sent.
 */
const AHEAD_BYTES = 16 * 1024 * 1024;

/**
 * The parts' COPYs, one after another: a part is started as the one before it starts being sent, and read ahead
 * (AHEAD_BYTES) meanwhile, so that two backends, and so two cores, are at work on one file, in order, with at most
 * one part held in memory. A part's end is found (Partes.fim) just before it starts. `copy` starts a part's COPY:
 * the first (which may write a header) and the others.
 */
async function* inParts(
  db: Database,
  partes: Partes,
  parte: number,
  copy: (part: Query, first: boolean, ahead: number) => Promise<Readable>,
): AsyncGenerator<Buffer> {
  const queries = (async function* () {
    let depois: Chave | undefined;
    for (;;) {
      const fim = partes.fim(parte, depois);
      const [ate] = await db.query<Chave>(fim.sql, fim.params);
      yield partes.entre(depois, ate);
      if (!ate) break;
      depois = ate;
    }
    yield partes.semData();
  })();
  const open = async (first: boolean) => {
    const { value, done } = await queries.next();
    // The first part is sent as it is read; the others are read ahead.
    return done ? undefined : copy(value, first, first ? 0 : AHEAD_BYTES);
  };
  let next = open(true);
  try {
    for (;;) {
      const part = await next;
      if (!part) return;
      next = open(false);
      next.catch(() => undefined);
      yield* part;
    }
  } finally {
    // A download cut off: the part read ahead is closed, which drops its connection.
    next.then(
      (stream) => stream?.destroy(),
      () => undefined,
    );
    void queries.return(undefined).catch(() => undefined);
  }
}

/** aabbggrr, KML's colour order, from #rrggbb. */
function kmlColor(hex: string): string {
  const [r, g, b] = [hex.slice(1, 3), hex.slice(3, 5), hex.slice(5, 7)];
  return `ff${b}${g}${r}`;
}

export interface KmlLayer {
  label: string;
  cor: string;
  /** The id of its `<Style>`, which its placemarks name. */
  estilo: string;
  /** The id of its `<Schema>`, which its placemarks' data name, and the schema's fields (the CSV's headers). */
  esquema: string;
  campos: readonly string[];
  /** One `placemark` per row (placemarksQuery), in parts on PostgreSQL as the CSV. */
  query: Query & { partes?: Partes };
}

/**
 * One KML document, one folder (a GDAL layer) per flow, the placemarks written by the database: on PostgreSQL by
 * COPY, a line each, which Node passes on as bytes; on PGlite read through the cursor.
 */
export function kmlStream(
  db: Database,
  documentName: string,
  layers: readonly KmlLayer[],
  parte = PARTE_KML,
): Readable {
  return Readable.from(
    (async function* () {
      yield `<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2">\n<Document>\n<name>${escapeXml(documentName)}</name>\n`;
      for (const layer of layers) {
        yield `<Style id="${layer.estilo}"><IconStyle><color>${kmlColor(layer.cor)}</color><Icon><href>http://maps.google.com/mapfiles/kml/shapes/placemark_circle.png</href></Icon></IconStyle></Style>\n`;
        const campos = layer.campos.map((campo) => `<SimpleField name="${escapeXml(campo)}" type="string"/>`);
        yield `<Schema name="${escapeXml(layer.label)}" id="${layer.esquema}">${campos.join('')}</Schema>\n`;
      }
      for (const layer of layers) {
        yield `<Folder>\n<name>${escapeXml(layer.label)}</name>\n`;
        yield* placemarks(db, layer.query, parte);
        yield '</Folder>\n';
      }
      yield '</Document>\n</kml>\n';
    })(),
    // Bytes, not objects: the stream holds at most 64 KB ahead of the response.
    { objectMode: false, highWaterMark: 64 * 1024 },
  );
}

async function* placemarks(
  db: Database,
  query: Query & { partes?: Partes },
  parte: number,
): AsyncGenerator<string | Buffer> {
  if (db.copyLines) {
    const copyLines = db.copyLines.bind(db);
    const { partes } = query;
    if (partes) yield* inParts(db, partes, parte, (part, _first, ahead) => copyLines(inline(part), ahead));
    else yield* await copyLines(inline(query));
    return;
  }
  for await (const rows of db.stream<{ placemark: string }>(query.sql, query.params)) {
    yield `${rows.map((row) => row.placemark).join('\n')}\n`;
  }
}

export interface ZipEntry {
  name: string;
  /** Opened when the zip reaches the entry, so only one source is read at a time. */
  open: () => Readable | undefined | Promise<Readable | undefined>;
  /** Stored as they are (photos are already compressed). */
  store?: boolean;
}

/** A zip written as its entries are read, one at a time, with backpressure from the response. */
export function zipStream(entries: AsyncIterable<ZipEntry>): Readable {
  const archive = new ZipArchive({ zlib: { level: 6 } });
  // A download cut off (the browser gone) closes the archive: stop reading, which closes the query's cursor;
  // waiting for an entry that never comes would hold a database connection (or PGlite itself) for ever.
  const closed = new Promise<'closed'>((resolve) => archive.once('close', () => resolve('closed')));
  void (async () => {
    try {
      for await (const entry of entries) {
        const source = await entry.open();
        if (!source) continue;
        const added = new Promise<'added'>((resolve, reject) => {
          archive.once('entry', () => resolve('added'));
          source.once('error', reject);
        });
        archive.append(source, { name: entry.name, store: entry.store ?? false });
        if ((await Promise.race([added, closed])) === 'closed') {
          source.destroy();
          return;
        }
      }
      await archive.finalize();
    } catch (error) {
      archive.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  })();
  return archive;
}
