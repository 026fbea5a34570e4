// The typed files of an export (issue 27: XLSX and GeoPackage) read the CSV's text, column by column, and give
// each value the type a spreadsheet or a GIS should hold: the same columns and values as the CSV, typed once here.
import type { Coluna } from './columns.ts';
import { PRODUCAO_HEADERS } from './columns.ts';

/**
 * What a column holds, from its declaration: `dataHora` and `data` are the CSV's 'DD/MM/YYYY HH:MM:SS' and
 * 'DD/MM/YYYY' (local time); `utm` a stored numeric(12, 2); `inteiro` a count the server makes; `decimal` a field
 * declared as a number that may have decimals (or be text, as 'OUTROS'); `campo` a field as typed, a number only
 * when it reads as a whole number; `texto` anything else.
 */
export type TipoColuna = 'texto' | 'campo' | 'decimal' | 'inteiro' | 'utm' | 'data' | 'dataHora';

export function tipoColuna(coluna: Coluna): TipoColuna {
  const { valor } = coluna;
  if ('campo' in valor) return coluna.decimal ? 'decimal' : 'campo';
  if ('derivado' in valor) return 'inteiro';
  if ('registro' in valor) {
    switch (valor.registro) {
      case 'dataHora':
        return 'dataHora';
      case 'utmE':
      case 'utmN':
        return 'utm';
      case 'fotos':
      case 'versao':
        return 'inteiro';
      default:
        return 'texto';
    }
  }
  return 'texto';
}

/** The production file's columns (TECNICO;DATA;QUANTIDADE), typed as the records' are. */
export const TIPOS_PRODUCAO: Record<(typeof PRODUCAO_HEADERS)[number], TipoColuna> = {
  TECNICO: 'texto',
  DATA: 'data',
  QUANTIDADE: 'inteiro',
};

/** A cell: text, a number, or a date whose UTC fields are the local date and time the CSV shows. */
export type Celula = string | number | Date | null;

const DATA_HORA = /^(\d{2})\/(\d{2})\/(\d{4})(?: (\d{2}):(\d{2}):(\d{2}))?$/;
const INTEIRO = /^-?\d+$/;
const DECIMAL = /^-?\d+(?:\.\d+)?$/;
/**
 * A whole number a spreadsheet keeps as typed: no leading zero (a CPF or a meter's '0012' stays text) and at most
 * 11 digits, what a spreadsheet's General format shows whole (a longer serial would read as 1,23457E+14).
 */
const CAMPO_INTEIRO = /^(?:0|-?[1-9]\d{0,10})$/;

function dataDe(text: string): Date | string {
  const found = DATA_HORA.exec(text);
  if (!found) return text;
  const [, dia, mes, ano, hora = '0', minuto = '0', segundo = '0'] = found;
  return new Date(
    Date.UTC(Number(ano), Number(mes) - 1, Number(dia), Number(hora), Number(minuto), Number(segundo)),
  );
}

/**
 * A CSV value (decimals with a point: `?decimal=ponto`) as a cell of its column's type. A value that does not read
 * as its type stays text, as the CSV has it: a typed file never loses what the CSV holds.
 */
export function celula(tipo: TipoColuna, text: string | null | undefined): Celula {
  if (text === null || text === undefined || text === '') return null;
  switch (tipo) {
    case 'data':
    case 'dataHora':
      return dataDe(text);
    case 'utm':
    case 'decimal':
      return DECIMAL.test(text) ? Number(text) : text;
    case 'inteiro':
      return INTEIRO.test(text) ? Number(text) : text;
    case 'campo':
      return CAMPO_INTEIRO.test(text) ? Number(text) : text;
    case 'texto':
      return text;
  }
}

/** How a spreadsheet shows a column's numbers and dates (Excel's formats; undefined: General). */
export function formatoPlanilha(tipo: TipoColuna): string | undefined {
  switch (tipo) {
    case 'dataHora':
      return 'dd/mm/yyyy hh:mm:ss';
    case 'data':
      return 'dd/mm/yyyy';
    // The stored UTM has two decimals, which the CSV writes: 674123.40, not 674123.4.
    case 'utm':
      return '0.00';
    default:
      return undefined;
  }
}

/**
 * A GeoPackage attribute's SQLite type. A GIS column has one type, so only what the server computes is a number;
 * fields people type (a height may be 'OUTROS') and dates stay the CSV's text. Counts are MEDIUMINT, a 32-bit
 * integer, which GDAL and QGIS read as Integer (INTEGER would be a 64-bit Integer64).
 */
export function tipoGeoPackage(tipo: TipoColuna): 'TEXT' | 'REAL' | 'MEDIUMINT' {
  if (tipo === 'utm') return 'REAL';
  if (tipo === 'inteiro') return 'MEDIUMINT';
  return 'TEXT';
}

/** A value of a GeoPackage attribute: the CSV's text, a number where the column is one. */
export function valorGeoPackage(tipo: TipoColuna, text: string | null | undefined): string | number | null {
  if (text === null || text === undefined || text === '') return null;
  const sqlite = tipoGeoPackage(tipo);
  if (sqlite === 'TEXT') return text;
  const value = celula(tipo, text);
  return typeof value === 'number' ? value : text;
}

/** Characters a sheet name may not hold (Excel), and its length. */
const NOME_INVALIDO = /[[\]:*?/\\]/g;
const NOME_MAXIMO = 31;

/**
 * The sheet names of files by their labels, in order: Excel's rules (31 characters, none of []:*?/\, unique without
 * regard to case), a clash numbered ('Pontos IP - Ana (2)').
 */
export function nomesDePlanilha(labels: readonly string[]): string[] {
  const usados = new Set<string>();
  return labels.map((label) => {
    const base =
      label
        .replace(NOME_INVALIDO, '-')
        .replace(/^'+|'+$/g, '')
        .trim() || 'Planilha';
    let nome = base.slice(0, NOME_MAXIMO);
    for (let n = 2; usados.has(nome.toLocaleLowerCase('pt-BR')); n++) {
      const sufixo = ` (${n})`;
      nome = `${base.slice(0, NOME_MAXIMO - sufixo.length)}${sufixo}`;
    }
    usados.add(nome.toLocaleLowerCase('pt-BR'));
    return nome;
  });
}
