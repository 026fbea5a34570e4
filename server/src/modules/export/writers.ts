// The files of an export as byte streams read with backpressure: CSV (PostgreSQL writes it itself with COPY; on
// PGlite csv-stringify writes the cursor's rows), KML placemarks, and zips (archiver).
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipArchive } from 'archiver';
import { stringify } from 'csv-stringify';
import type { Database } from '../../db/database.ts';
import { inline, type Query } from './queries.ts';

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

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

export function escapeXml(value: unknown): string {
  // Characters XML 1.0 forbids (control codes a phone keyboard can still produce) are dropped.
  return (
    String(value ?? '')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
      .replace(/[&<>"']/g, (c) => XML_ESCAPES[c] ?? c)
  );
}

/** aabbggrr, KML's colour order, from #rrggbb. */
function kmlColor(hex: string): string {
  const [r, g, b] = [hex.slice(1, 3), hex.slice(3, 5), hex.slice(5, 7)];
  return `ff${b}${g}${r}`;
}

/** A row of a KML query: the declared columns under their headers plus KML_EXTRA. */
export interface KmlRow {
  _id: string;
  _fluxo: string;
  _lat: number | null;
  _lng: number | null;
  _fotos: number[];
  [header: string]: unknown;
}

export interface KmlLayer {
  label: string;
  cor: string;
  /** Which column names the placemark. */
  nome: string;
  headers: readonly string[];
  query: Query;
}

/**
 * One KML document, one folder (a GDAL layer) per flow; each placemark carries the record's columns as
 * ExtendedData and links its photos (absolute URLs: the file is opened outside the browser).
 */
export function kmlStream(
  db: Database,
  documentName: string,
  layers: readonly KmlLayer[],
  origin: string,
): Readable {
  return Readable.from(
    (async function* () {
      yield `<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2">\n<Document>\n<name>${escapeXml(documentName)}</name>\n`;
      for (const [index, layer] of layers.entries()) {
        yield `<Style id="s${index}"><IconStyle><color>${kmlColor(layer.cor)}</color><Icon><href>http://maps.google.com/mapfiles/kml/shapes/placemark_circle.png</href></Icon></IconStyle></Style>\n`;
      }
      for (const [index, layer] of layers.entries()) {
        yield `<Folder>\n<name>${escapeXml(layer.label)}</name>\n`;
        for await (const rows of db.stream<KmlRow>(layer.query.sql, layer.query.params)) {
          let chunk = '';
          for (const row of rows) {
            if (row._lat === null || row._lng === null) continue;
            const fotos = row._fotos
              .map(
                (slot, n) =>
                  `<a href="${escapeXml(`${origin}/api/fotos/${row._id}/${slot}`)}">Foto ${n + 1}</a>`,
              )
              .join('<br/>');
            const data = layer.headers
              .map(
                (header) =>
                  `<Data name="${escapeXml(header)}"><value>${escapeXml(row[header])}</value></Data>`,
              )
              .join('');
            chunk +=
              `<Placemark><name>${escapeXml(row[layer.nome] ?? row._id)}</name>` +
              (fotos ? `<description>${escapeXml(fotos)}</description>` : '') +
              `<styleUrl>#s${index}</styleUrl><ExtendedData>${data}</ExtendedData>` +
              `<Point><coordinates>${row._lng},${row._lat}</coordinates></Point></Placemark>\n`;
          }
          yield chunk;
        }
        yield '</Folder>\n';
      }
      yield '</Document>\n</kml>\n';
    })(),
    // Bytes, not objects: the stream holds at most 64 KB ahead of the response, not 16 batches of placemarks.
    { objectMode: false, highWaterMark: 64 * 1024 },
  );
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
