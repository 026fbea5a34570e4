// The files of an export as byte streams read with backpressure: CSV (PostgreSQL writes it itself with COPY; on
// PGlite csv-stringify writes the cursor's rows), KML (placemarks written by the query), and zips (archiver).
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipArchive } from 'archiver';
import { stringify } from 'csv-stringify';
import type { Database } from '../../db/database.ts';
import { escapeXml, inline, type Query } from './queries.ts';

/** Excel (pt-BR) reads a CSV as UTF-8 only when it starts with this mark. */
const BOM = '\uFEFF';

/** `;`-separated, header row, quoted only where a value holds `;`, a quote or a line break. */
export function csvStream(db: Database, query: Query, headers: readonly string[]): Readable {
  if (db.copyOut) {
    const copyOut = db.copyOut.bind(db);
    return Readable.from(
      (async function* () {
        yield BOM;
        yield* await copyOut(inline(query), "FORMAT csv, DELIMITER ';', HEADER true, ENCODING 'UTF8'");
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
  /** One `placemark` per row (placemarksQuery). */
  query: Query;
}

/**
 * One KML document, one folder (a GDAL layer) per flow, the placemarks written by the database: on PostgreSQL by
 * COPY, a line each, which Node passes on as bytes; on PGlite read through the cursor.
 */
export function kmlStream(db: Database, documentName: string, layers: readonly KmlLayer[]): Readable {
  return Readable.from(
    (async function* () {
      yield `<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2">\n<Document>\n<name>${escapeXml(documentName)}</name>\n`;
      for (const layer of layers) {
        yield `<Style id="${layer.estilo}"><IconStyle><color>${kmlColor(layer.cor)}</color><Icon><href>http://maps.google.com/mapfiles/kml/shapes/placemark_circle.png</href></Icon></IconStyle></Style>\n`;
      }
      for (const layer of layers) {
        yield `<Folder>\n<name>${escapeXml(layer.label)}</name>\n`;
        yield* placemarks(db, layer.query);
        yield '</Folder>\n';
      }
      yield '</Document>\n</kml>\n';
    })(),
    // Bytes, not objects: the stream holds at most 64 KB ahead of the response.
    { objectMode: false, highWaterMark: 64 * 1024 },
  );
}

async function* placemarks(db: Database, query: Query): AsyncGenerator<string | Buffer> {
  if (db.copyOut) {
    // CSV mode with a delimiter and a quote that novus_xml removes from every value: each row comes out as it is,
    // one placemark per line (line breaks in values are character references).
    yield* await db.copyOut(inline(query), "FORMAT csv, DELIMITER E'\\x01', QUOTE E'\\x02', ENCODING 'UTF8'");
    return;
  }
  for await (const rows of db.stream<{ placemark: string }>(query.sql, query.params)) {
    yield `${rows.map((row) => row.placemark).join('\n')}\n`;
  }
}

export interface ZipEntry {
  name: string;
  /** Opened when the zip reaches the entry, so only one source is read at a time. */
  open: () => Readable | undefined;
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
        const source = entry.open();
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
