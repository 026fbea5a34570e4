// Moving a pilot off the embedded database: every table of a PGlite database copied into an empty PostgreSQL one
// at the same migration, in foreign-key order, in one transaction; then counted on both sides and every photo the
// rows name read back from the photo store and hashed. `npm run db:move` (scripts/db-move.ts) runs it.
import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import type { BlobStore } from '../storage/blob-store.ts';
import type { Database, Queryable } from './database.ts';

/** Rows per INSERT: each batch goes over as one JSON array. */
const BATCH = 2_000;

export interface TableCount {
  tabela: string;
  origem: number;
  destino: number;
}

export interface MoveReport {
  tabelas: TableCount[];
  fotos: { verificadas: number; ausentes: string[]; divergentes: string[] };
}

export class MoveError extends Error {}

interface Column {
  name: string;
  /** geometry and geography travel as their hex EWKB text. */
  spatial: boolean;
}

interface Table {
  name: string;
  columns: Column[];
  /** Columns referring to the same table: rows without them go first. */
  selfReferences: string[];
  /** Tables this one refers to. */
  references: string[];
  /** bigserial columns, whose sequences continue after the copied rows. */
  serials: { column: string; sequence: string }[];
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function tables(db: Queryable): Promise<Table[]> {
  const names = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c
     WHERE c.relkind = 'r' AND c.relnamespace = to_regnamespace(current_schema())::oid
       AND c.relname <> 'schema_migrations' AND c.relname <> 'spatial_ref_sys'
     ORDER BY 1`,
  );
  const result: Table[] = [];
  for (const { name } of names) {
    const columns = await db.query<{ name: string; type: string }>(
      `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type FROM pg_attribute a
       WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
       ORDER BY a.attnum`,
      [quote(name)],
    );
    const foreign = await db.query<{ referenced: string; column: string }>(
      `SELECT f.relname AS referenced, a.attname AS column FROM pg_constraint k
       JOIN pg_class f ON f.oid = k.confrelid
       JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = k.conkey[1]
       WHERE k.contype = 'f' AND k.conrelid = to_regclass($1)`,
      [quote(name)],
    );
    const serials = await db.query<{ column: string; sequence: string }>(
      `SELECT a.attname AS column, pg_get_serial_sequence($1, a.attname) AS sequence FROM pg_attribute a
       WHERE a.attrelid = to_regclass($1) AND a.attnum > 0
         -- A dropped column (migration 0017's texto_xml) keeps a row here under a name no function accepts.
         AND CASE WHEN a.attisdropped THEN false ELSE pg_get_serial_sequence($1, a.attname) IS NOT NULL END`,
      [quote(name)],
    );
    result.push({
      name,
      columns: columns.map((column) => ({
        name: column.name,
        spatial: /^(geometry|geography)\b/.test(column.type),
      })),
      selfReferences: foreign.filter((key) => key.referenced === name).map((key) => key.column),
      references: foreign.filter((key) => key.referenced !== name).map((key) => key.referenced),
      serials,
    });
  }
  return inDependencyOrder(result);
}

function inDependencyOrder(list: Table[]): Table[] {
  const ordered: Table[] = [];
  const done = new Set<string>();
  const visit = (table: Table, path: string[]) => {
    if (done.has(table.name)) return;
    if (path.includes(table.name)) throw new MoveError(`Referências circulares entre ${path.join(', ')}.`);
    for (const name of table.references) {
      const referenced = list.find((candidate) => candidate.name === name);
      if (referenced) visit(referenced, [...path, table.name]);
    }
    done.add(table.name);
    ordered.push(table);
  };
  for (const table of list) visit(table, []);
  return ordered;
}

async function migrations(db: Queryable): Promise<string[]> {
  return (await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')).map(
    (row) => row.name,
  );
}

async function count(db: Queryable, table: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${quote(table)}`);
  return row?.n ?? 0;
}

/**
 * Copies everything from `source` (PGlite) into `target` (PostgreSQL), both migrated by this version of Novus.
 * Refuses a target that holds any row, so that nothing is merged by accident. Photos stay in `blobs` (the same
 * folder, or an S3 store filled by `npm run photos:migrate`): each one the rows name is read back and hashed.
 */
export async function moveDatabase(
  source: Database,
  target: Database,
  blobs: BlobStore,
  progress: (line: string) => void = () => undefined,
): Promise<MoveReport> {
  const [from, to] = [await migrations(source), await migrations(target)];
  if (from.join() !== to.join()) {
    throw new MoveError(
      'Origem e destino não estão na mesma versão do banco: inicie o Novus em cada um antes.',
    );
  }
  const list = await tables(source);
  for (const table of list) {
    if ((await count(target, table.name)) > 0) {
      throw new MoveError(`O banco de destino já tem dados (tabela ${table.name}): use um banco vazio.`);
    }
  }
  await target.transaction(async (tx) => {
    // The rows come as they are, computed columns included: the tables' own triggers (the change feed's rows and
    // the webhooks' outbox written for each record, the UTM columns, the photo slots) would write again what the
    // copy brings, as pg_dump's --disable-triggers avoids. Owned by the user who migrated them, so this may.
    for (const table of list) await tx.query(`ALTER TABLE ${quote(table.name)} DISABLE TRIGGER USER`);
    for (const table of list) {
      const names = table.columns.map((column) => quote(column.name)).join(', ');
      const select = table.columns
        .map((column) =>
          column.spatial ? `${quote(column.name)}::text AS ${quote(column.name)}` : quote(column.name),
        )
        .join(', ');
      const order = table.selfReferences.map((column) => `${quote(column)} IS NOT NULL`).join(', ');
      let copied = 0;
      for await (const rows of source.stream<{ row: string }>(
        `SELECT row_to_json(t)::text AS row FROM (SELECT ${select} FROM ${quote(table.name)}${order ? ` ORDER BY ${order}` : ''}) t`,
        [],
        BATCH,
      )) {
        await tx.query(
          `INSERT INTO ${quote(table.name)} (${names})
           SELECT ${names} FROM json_populate_recordset(NULL::${quote(table.name)}, $1::json)`,
          [`[${rows.map((row) => row.row).join(',')}]`],
        );
        copied += rows.length;
      }
      for (const serial of table.serials) {
        await tx.query(
          `SELECT setval($1, COALESCE((SELECT max(${quote(serial.column)}) FROM ${quote(table.name)}), 0) + 1, false)`,
          [serial.sequence],
        );
      }
      progress(`${table.name}: ${copied} linhas`);
    }
    for (const table of list) await tx.query(`ALTER TABLE ${quote(table.name)} ENABLE TRIGGER USER`);
  });
  const tabelas: TableCount[] = [];
  for (const table of list) {
    tabelas.push({
      tabela: table.name,
      origem: await count(source, table.name),
      destino: await count(target, table.name),
    });
  }
  const fotos: MoveReport['fotos'] = { verificadas: 0, ausentes: [], divergentes: [] };
  for await (const rows of target.stream<{ hash: string }>(
    'SELECT DISTINCT hash FROM fotos ORDER BY hash',
    [],
    BATCH,
  )) {
    for (const { hash } of rows) {
      const stream = await blobs.open(hash);
      if (!stream) fotos.ausentes.push(hash);
      else if ((await sha256(stream)) !== hash) fotos.divergentes.push(hash);
      else fotos.verificadas += 1;
    }
    progress(`fotos: ${fotos.verificadas} verificadas`);
  }
  return { tabelas, fotos };
}

async function sha256(stream: Readable): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Whether the report says everything arrived: the same count in every table, every photo whole. */
export function moved(report: MoveReport): boolean {
  return (
    report.tabelas.every((table) => table.origem === table.destino) &&
    report.fotos.ausentes.length === 0 &&
    report.fotos.divergentes.length === 0
  );
}
