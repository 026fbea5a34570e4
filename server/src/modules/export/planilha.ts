// An XLSX workbook (issue 27): one sheet per file of the CSV section, its headers and values, dates as dates and
// numbers as numbers (domain/src/export/celulas.ts). exceljs's streaming writer sends the zip as the rows are read,
// inline strings and no shared-strings table, so memory stays flat; the query waits while the response is full.
import { PassThrough, type Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { celula, formatoPlanilha, type TipoColuna } from '@novus/domain/export/celulas';
import type { Database } from '../../db/database.ts';
import type { Query } from './queries.ts';

export interface Aba {
  /** The sheet's name (nomesDePlanilha: Excel's rules). */
  nome: string;
  /** The CSV's headers, in its order, with the type of each. */
  colunas: readonly { header: string; tipo: TipoColuna }[];
  /** The CSV's query, with decimals written with a point (`?decimal=ponto`), which celula reads. */
  query: Query;
}

/** Rows a sheet holds under its header (Excel: 1,048,576 rows); more continue on a sheet 'name (2)'. */
export const LINHAS_POR_ABA = 1_048_575;

/** How much of the file waits for the client before the query waits (a batch of rows is about 100 KB zipped). */
const AHEAD_BYTES = 1024 * 1024;

/** Characters XML 1.0 cannot hold, which a typed value could carry: a spreadsheet would refuse the file. */
// eslint-disable-next-line no-control-regex
const XML_INVALIDO = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

function valor(tipo: TipoColuna, text: unknown) {
  const value = celula(tipo, typeof text === 'string' ? text : text === null ? null : String(text));
  return typeof value === 'string' ? value.replace(XML_INVALIDO, '') : value;
}

/** A stream's write side as readable-stream 2 (archiver's) and Node keep it, and its 'drain'. */
interface Entrada {
  _writableState?: { length: number; highWaterMark: number };
  once(event: 'drain', listener: () => void): unknown;
  off(event: 'drain', listener: () => void): unknown;
}

/**
 * The zip entry exceljs pipes a sheet into. exceljs 4 writes each committed row to it without waiting (StreamBuf
 * ignores backpressure), so rows would pile up there, in memory, as fast as the query gives them (measured: +236 MB
 * for 300,000 rows, +49 MB when waiting). The entry is an internal of exceljs 4 (WorksheetWriter.stream.pipes);
 * absent, only the response paces the rows.
 */
function entradaOf(sheet: ExcelJS.Worksheet): Entrada | undefined {
  const pipes = (sheet as unknown as { stream?: { pipes?: unknown[] } }).stream?.pipes;
  const entrada = pipes?.[0] as Entrada | undefined;
  return entrada && typeof entrada.once === 'function' ? entrada : undefined;
}

/** Until `emitter` emits `event` or the response stream is gone. */
function until(out: PassThrough, emitter: Entrada | PassThrough): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      emitter.off('drain', done);
      out.off('close', done);
      resolve();
    };
    emitter.once('drain', done);
    out.once('close', done);
  });
}

/** Until the sheet's zip entry and the response have room again, or the response is gone. */
async function room(out: PassThrough, sheet: ExcelJS.Worksheet): Promise<void> {
  const entrada = entradaOf(sheet);
  const behind = () => {
    const state = entrada?._writableState;
    return state !== undefined && state.length > state.highWaterMark;
  };
  while (!out.destroyed && entrada && behind()) await until(out, entrada);
  while (!out.destroyed && out.writableNeedDrain) await until(out, out);
}

/** A sheet's name for its n-th part (n ≥ 2), within Excel's 31 characters. */
const parte = (nome: string, n: number) => `${nome.slice(0, 31 - ` (${n})`.length)} (${n})`;

/**
 * The workbook of the sheets, written while their queries are read, one after the other. A download cut off (the
 * stream destroyed) stops at the next batch, which closes the query's cursor.
 */
export function xlsxStream(db: Database, abas: readonly Aba[]): Readable {
  const out = new PassThrough({ highWaterMark: AHEAD_BYTES });
  let stopped = false;
  out.once('close', () => {
    stopped = true;
  });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  const addSheet = (aba: Aba, nome: string) => {
    const sheet = workbook.addWorksheet(nome, { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = aba.colunas.map((coluna) => {
      const numFmt = formatoPlanilha(coluna.tipo);
      return {
        header: coluna.header,
        key: coluna.header,
        width: Math.max(10, coluna.header.length + 2, coluna.tipo === 'dataHora' ? 20 : 0),
        ...(numFmt ? { style: { numFmt } } : {}),
      };
    });
    return sheet;
  };
  void (async () => {
    try {
      for (const aba of abas) {
        if (stopped) return;
        let sheet = addSheet(aba, aba.nome);
        let linhas = 0;
        let partes = 1;
        for await (const rows of db.stream<Record<string, unknown>>(aba.query.sql, aba.query.params)) {
          // Leaving the loop returns the stream's generator, which closes its cursor.
          if (stopped) return;
          for (const row of rows) {
            if (linhas === LINHAS_POR_ABA) {
              sheet.commit();
              partes += 1;
              sheet = addSheet(aba, parte(aba.nome, partes));
              linhas = 0;
            }
            const values: Record<string, ReturnType<typeof valor>> = {};
            for (const coluna of aba.colunas) values[coluna.header] = valor(coluna.tipo, row[coluna.header]);
            sheet.addRow(values).commit();
            linhas += 1;
          }
          await room(out, sheet);
        }
        sheet.commit();
      }
      if (!stopped) await workbook.commit();
    } catch (error) {
      out.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  })();
  return out;
}
