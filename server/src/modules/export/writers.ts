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
        if (!partes) yield* joined(await copyOut(inline(query), `${CSV}, HEADER true`));
        else yield* inParts(db, copyOut, partes, parte, { first: `${CSV}, HEADER true`, rest: CSV });
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

type CopyOut = NonNullable<Database['copyOut']>;

/**
 * How much of a part is read ahead before its COPY waits: a whole part of the CSV (about 10 MB) or the KML (its
 * parts are smaller), so that the second backend is not held up while the part before is sent.
 */
const AHEAD_BYTES = 16 * 1024 * 1024;

/**
 * The response is written in chunks of JOIN_BYTES, or what came in JOIN_WAIT_MS (the first, the last): PostgreSQL
 * sends 8 KB at a time, and each chunk is a write to the client's socket; fewer, larger writes cost the server and
 * the client less (a third of the server's CPU, measured on the KML of 1 M placemarks).
 */
const JOIN_BYTES = 1024 * 1024;
const JOIN_WAIT_MS = 50;

/**
 * A COPY's bytes as the response's chunks: JOIN_BYTES at a time, or what came once JOIN_WAIT_MS have passed since
 * the chunk before (checked as bytes arrive: a slow query's rows are not held back for long).
 */
export async function* joined(stream: Readable): AsyncGenerator<Buffer> {
  let pieces: Buffer[] = [];
  let size = 0;
  let since = -Infinity;
  const take = () => {
    const chunk = pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces, size);
    pieces = [];
    size = 0;
    since = performance.now();
    return chunk;
  };
  try {
    for (;;) {
      // Everything buffered is taken, so that the wait below lasts until more comes ('readable' fires at once on
      // a stream that holds bytes).
      for (let piece: Buffer | null; (piece = stream.read() as Buffer | null) !== null;) {
        pieces.push(piece);
        size += piece.length;
      }
      if (stream.errored) throw stream.errored;
      const over = stream.readableEnded || stream.destroyed;
      if (size > 0 && (over || size >= JOIN_BYTES || performance.now() - since >= JOIN_WAIT_MS)) {
        yield take();
        // Events may have come while the chunk was sent: read again before waiting.
        continue;
      }
      if (over) return;
      // Nothing was between the last read (null) and here: the next push or the end is heard.
      await moreOf(stream);
    }
  } finally {
    // Stopped midway (the download cut off) or failed: the COPY is closed, which drops its connection.
    if (!stream.readableEnded) stream.destroy();
  }
}

/** Until the stream has more to read, has ended, or has failed. */
function moreOf(stream: Readable): Promise<void> {
  return new Promise((resolve) => {
    const events = ['readable', 'end', 'error', 'close'] as const;
    const done = () => {
      for (const event of events) stream.off(event, done);
      resolve();
    };
    for (const event of events) stream.on(event, done);
  });
}

/** A part's COPY started now, its rows held until the parts before it are sent. */
function readAhead(copyOut: CopyOut, query: Query, options: string): Promise<Readable> {
  const started = copyOut(inline(query), options, AHEAD_BYTES);
  started.catch(() => undefined);
  return started;
}

/**
 * The first part streamed while the ends of the others are found; from then on the part after the one being sent
 * is read ahead by a second COPY. `options` are COPY's, for the first part (a header) and the others.
 */
async function* inParts(
  db: Database,
  copyOut: CopyOut,
  partes: Partes,
  parte: number,
  options: { first: string; rest: string },
): AsyncGenerator<Buffer | string> {
  const ends = partes.chaves(parte);
  const rest = db
    .query<Chave>(ends.sql, ends.params)
    .then((keys) => [...keys.map((key, index) => partes.entre(key, keys[index + 1])), partes.semData()]);
  let ahead: Promise<Readable> | undefined;
  let stopped = false;
  const started = rest.then((queries) => {
    if (!stopped) ahead = readAhead(copyOut, queries[0] as Query, options.rest);
    return queries;
  });
  started.catch(() => undefined);
  try {
    yield* joined(await copyOut(inline(partes.primeiras(parte)), options.first));
    const queries = await started;
    for (let index = 0; index < queries.length; index++) {
      const part = ahead as Promise<Readable>;
      const next = queries[index + 1];
      ahead = next ? readAhead(copyOut, next, options.rest) : undefined;
      yield* joined(await part);
    }
  } finally {
    stopped = true;
    // A download cut off: the part read ahead is closed, which drops its connection.
    ahead?.then(
      (stream) => stream.destroy(),
      () => undefined,
    );
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

/**
 * CSV mode with a delimiter and a quote that novus_xml removes from every value: each row comes out as it is, one
 * placemark per line (line breaks in values are character references).
 */
const PLACEMARKS = "FORMAT csv, DELIMITER E'\\x01', QUOTE E'\\x02', ENCODING 'UTF8'";

async function* placemarks(
  db: Database,
  query: Query & { partes?: Partes },
  parte: number,
): AsyncGenerator<string | Buffer> {
  if (db.copyOut) {
    const { partes } = query;
    if (partes)
      yield* inParts(db, db.copyOut.bind(db), partes, parte, { first: PLACEMARKS, rest: PLACEMARKS });
    else yield* joined(await db.copyOut(inline(query), PLACEMARKS));
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
