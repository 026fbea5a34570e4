// A GeoPackage (OGC 12-128r18, an SQLite file): one point layer per flow in EPSG:4326, the attributes the CSV's
// columns with its values. SQLite writes a file, not a stream, so the file is written to a temporary directory in
// batches (one transaction each) as the query's rows arrive, then sent and deleted: memory stays flat, the first
// byte comes once the file is whole. node-sqlite3-wasm is SQLite compiled to WebAssembly with a VFS over node:fs:
// no native build, which CI machines (npm registry only) could not fetch.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import sqlite3 from 'node-sqlite3-wasm';
import type { Coluna } from '@novus/domain/export/columns';
import { tipoColuna, tipoGeoPackage, valorGeoPackage } from '@novus/domain/export/celulas';
import type { Database } from '../../db/database.ts';
import { POSICAO, type Query } from './queries.ts';

export interface GeoPackageLayer {
  /** The table's name and identifier: the flow's KML label ('Postes'). */
  nome: string;
  colunas: readonly Coluna[];
  /** registrosQuery of the columns with `posicao` (and decimals with a point, as GIS read them). */
  query: Query;
}

const SRS_ID = 4326;
const WGS84 =
  'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AXIS["Latitude",NORTH],AXIS["Longitude",EAST],AUTHORITY["EPSG","4326"]]';

/** 'GPKG' as the SQLite header's application id, and version 1.3.0 (GDAL 3.6 reads it without a warning). */
const APPLICATION_ID = 0x47504b47;
const USER_VERSION = 10300;

/** The tables every GeoPackage has (its section 1.1). */
const SCHEMA = `
CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL, srs_id INTEGER PRIMARY KEY, organization TEXT NOT NULL,
  organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT);
CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL, identifier TEXT UNIQUE,
  description TEXT DEFAULT '', last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER,
  CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id));
CREATE TABLE gpkg_geometry_columns (table_name TEXT NOT NULL, column_name TEXT NOT NULL,
  geometry_type_name TEXT NOT NULL, srs_id INTEGER NOT NULL, z TINYINT NOT NULL, m TINYINT NOT NULL,
  CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name), CONSTRAINT uk_gc_table_name UNIQUE (table_name),
  CONSTRAINT fk_gc_tn FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name),
  CONSTRAINT fk_gc_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id));
`;

const identifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * A point as GeoPackage stores it: the binary header ('GP', version 0, flags 0b1: little endian, no envelope, which
 * a point may omit; the SRS id) and the point in little-endian WKB.
 */
export function geoPackagePoint(lng: number, lat: number): Uint8Array {
  const bytes = Buffer.alloc(8 + 21);
  bytes.write('GP', 0, 'latin1');
  bytes.writeUInt8(0, 2);
  bytes.writeUInt8(0b1, 3);
  bytes.writeInt32LE(SRS_ID, 4);
  bytes.writeUInt8(1, 8);
  bytes.writeUInt32LE(1, 9);
  bytes.writeDoubleLE(lng, 13);
  bytes.writeDoubleLE(lat, 21);
  return bytes;
}

type SqliteDb = InstanceType<typeof sqlite3.Database>;

function createSchema(gpkg: SqliteDb) {
  gpkg.exec(`PRAGMA application_id = ${APPLICATION_ID}; PRAGMA user_version = ${USER_VERSION};
    PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; ${SCHEMA}`);
  gpkg.run(
    `INSERT INTO gpkg_spatial_ref_sys VALUES
      ('Undefined cartesian SRS', -1, 'NONE', -1, 'undefined', 'undefined cartesian coordinate reference system'),
      ('Undefined geographic SRS', 0, 'NONE', 0, 'undefined', 'undefined geographic coordinate reference system'),
      ('WGS 84 geodetic', ${SRS_ID}, 'EPSG', ${SRS_ID}, ?, 'longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid')`,
    [WGS84],
  );
}

/** The layer's table and its entries in gpkg_contents and gpkg_geometry_columns; the insert of one row. */
function createLayer(gpkg: SqliteDb, layer: GeoPackageLayer) {
  const reserved = new Set(['fid', 'geom']);
  const columns = layer.colunas.map((coluna) => {
    if (reserved.has(coluna.header.toLowerCase()))
      throw new Error(`GeoPackage column clash: ${coluna.header}`);
    return `${identifier(coluna.header)} ${tipoGeoPackage(tipoColuna(coluna))}`;
  });
  gpkg.exec(
    `CREATE TABLE ${identifier(layer.nome)} (fid INTEGER PRIMARY KEY AUTOINCREMENT, geom POINT, ${columns.join(', ')})`,
  );
  gpkg.run(
    `INSERT INTO gpkg_contents (table_name, data_type, identifier, srs_id) VALUES (?, 'features', ?, ${SRS_ID})`,
    [layer.nome, layer.nome],
  );
  gpkg.run(`INSERT INTO gpkg_geometry_columns VALUES (?, 'geom', 'POINT', ${SRS_ID}, 0, 0)`, [layer.nome]);
  const names = ['geom', ...layer.colunas.map((coluna) => identifier(coluna.header))];
  return gpkg.prepare(
    `INSERT INTO ${identifier(layer.nome)} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
  );
}

/**
 * The GeoPackage of the layers, written while the rows are read and sent once whole, then deleted. A download cut
 * off (the stream destroyed) stops the writing at the next batch, which closes the query's cursor.
 */
export function geoPackageStream(db: Database, layers: readonly GeoPackageLayer[]): Readable {
  const out = new PassThrough();
  let stopped = false;
  out.once('close', () => {
    stopped = true;
  });
  void (async () => {
    let dir: string | undefined;
    try {
      dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'novus-gpkg-'));
      const file = path.join(dir, 'export.gpkg');
      const gpkg = new sqlite3.Database(file);
      try {
        createSchema(gpkg);
        for (const layer of layers) {
          if (stopped) break;
          await writeLayer(db, gpkg, layer, () => stopped);
        }
      } finally {
        gpkg.close();
      }
      if (!stopped) await pipeline(fs.createReadStream(file), out);
    } catch (error) {
      out.destroy(error instanceof Error ? error : new Error(String(error)));
    } finally {
      // A failure here (a full disk) must not become an unhandled rejection: the file is left, the answer sent.
      if (dir) await fs.promises.rm(dir, { recursive: true, force: true }).catch(() => undefined);
    }
  })();
  return out;
}

async function writeLayer(db: Database, gpkg: SqliteDb, layer: GeoPackageLayer, stopped: () => boolean) {
  const insert = createLayer(gpkg, layer);
  const tipos = layer.colunas.map(tipoColuna);
  const extent = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  try {
    for await (const rows of db.stream<Record<string, unknown>>(layer.query.sql, layer.query.params)) {
      // Leaving the loop returns the stream's generator, which closes its cursor.
      if (stopped()) return;
      gpkg.exec('BEGIN');
      for (const row of rows) {
        const lng = row[POSICAO.lng];
        const lat = row[POSICAO.lat];
        const placed = typeof lng === 'number' && typeof lat === 'number';
        if (placed) {
          extent.minX = Math.min(extent.minX, lng);
          extent.maxX = Math.max(extent.maxX, lng);
          extent.minY = Math.min(extent.minY, lat);
          extent.maxY = Math.max(extent.maxY, lat);
        }
        insert.run([
          placed ? geoPackagePoint(lng, lat) : null,
          ...layer.colunas.map((coluna, index) =>
            valorGeoPackage(tipos[index] ?? 'texto', row[coluna.header] as string | null),
          ),
        ]);
      }
      gpkg.exec('COMMIT');
    }
  } finally {
    insert.finalize();
  }
  if (extent.minX <= extent.maxX) {
    gpkg.run('UPDATE gpkg_contents SET min_x = ?, min_y = ?, max_x = ?, max_y = ? WHERE table_name = ?', [
      extent.minX,
      extent.minY,
      extent.maxX,
      extent.maxY,
      layer.nome,
    ]);
  }
}
