// Point files uploaded with a project (SPEC.md sections 3 and 9): IP .txt, BDGD, Fiscalização and LPT Agiltec.
// Every bad line is refused with its number; nothing partial is returned.
import Papa from 'papaparse';
import type { Point } from 'geojson';
import { isInBrazil } from './brazil.ts';
import type { LatLng } from './kml.ts';
import { FileParseError } from './parse-error.ts';
import { checkReadableText } from './text-file.ts';
import { utmToLatLng } from './utm.ts';
import {
  BDGD_ATIVOS,
  FISCALIZACAO_COLUMNS,
  FISCALIZACAO_FUSO,
  LPT_AGILTEC_COLUMNS,
  MAX_POINT_FILE_BYTES,
} from './point-columns.ts';

export { BDGD_ATIVOS, FISCALIZACAO_COLUMNS, LPT_AGILTEC_COLUMNS, MAX_POINT_FILE_BYTES };

/** A value of a point file, as the points' JSON fields allow it (a name, an id, an e-mail...). */
export const MAX_POINT_CELL = 500;

interface Row {
  line: number;
  cells: string[];
}

function readRows(text: string): Row[] {
  if (text.length > MAX_POINT_FILE_BYTES) {
    throw new FileParseError('O arquivo de pontos excede o tamanho máximo de 20 MB.');
  }
  checkReadableText(text);
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { delimiter: ';', skipEmptyLines: false });
  const rows: Row[] = [];
  parsed.data.forEach((cells, index) => {
    const trimmed = cells.map((cell) => cell.trim());
    if (trimmed.every((cell) => cell === '')) return; // blank lines (a trailing newline) carry no point
    const long = trimmed.findIndex((cell) => cell.length > MAX_POINT_CELL);
    if (long >= 0) {
      throw new FileParseError(`a coluna ${long + 1} tem mais de ${MAX_POINT_CELL} caracteres.`, index + 1);
    }
    rows.push({ line: index + 1, cells: trimmed });
  });
  return rows;
}

/** A number written with a dot or a decimal comma ("-43,95" is common in Brazilian files). */
function readNumber(value: string | undefined, what: string, line: number): number {
  const text = (value ?? '').trim();
  const normalised = text.includes('.') ? text : text.replace(',', '.');
  const number = Number(normalised);
  if (text === '' || !Number.isFinite(number)) {
    throw new FileParseError(`${what} não é um número válido ("${text}").`, line);
  }
  return number;
}

function requireColumns(row: Row, count: number, names: string): void {
  if (row.cells.length < count) {
    throw new FileParseError(
      `esperadas ${count} colunas (${names}), encontradas ${row.cells.length}.`,
      row.line,
    );
  }
}

function checkInBrazil({ lat, lng }: LatLng, line: number): void {
  if (!isInBrazil(lat, lng)) {
    throw new FileParseError(
      `coordenada fora do Brasil (latitude ${lat.toFixed(6)}, longitude ${lng.toFixed(6)}).`,
      line,
    );
  }
}

function atLeastOne<T>(items: T[]): T[] {
  if (items.length === 0) throw new FileParseError('O arquivo não contém nenhum ponto.');
  return items;
}

export interface PontoBase {
  coordenadas: [number, number];
  localizacao: Point;
  carregadoBackoffice: true;
  coletado: false;
}

function base(point: LatLng): PontoBase {
  return {
    coordenadas: [point.lat, point.lng],
    localizacao: { type: 'Point', coordinates: [point.lng, point.lat] },
    carregadoBackoffice: true,
    coletado: false,
  };
}

export interface PontoIp extends PontoBase {
  idConcessionaria: string;
  idCircuito: string;
  quantidadeCompartilhamento: number;
}

/** IP .txt: longitude; latitude; idConcessionaria; idCircuito; quantidadeCompartilhamento (default 0). */
export function parseIpPoints(text: string): PontoIp[] {
  return atLeastOne(
    readRows(text).map((row) => {
      requireColumns(row, 4, 'longitude; latitude; idConcessionaria; idCircuito');
      const [lngText, latText, idConcessionaria = '', idCircuito = '', quantidade = ''] = row.cells;
      const point = {
        lng: readNumber(lngText, 'longitude', row.line),
        lat: readNumber(latText, 'latitude', row.line),
      };
      checkInBrazil(point, row.line);
      const quantidadeCompartilhamento =
        quantidade === '' ? 0 : readNumber(quantidade, 'quantidadeCompartilhamento', row.line);
      return { ...base(point), idConcessionaria, idCircuito, quantidadeCompartilhamento };
    }),
  );
}

export interface PontoBdgd extends PontoBase {
  idConcessionaria: string;
  ativo: (typeof BDGD_ATIVOS)[number];
  sequencial: number;
}

/**
 * BDGD: header-less idConcessionaria; ativo; x; y in UTM of the project's fuso (southern hemisphere).
 * Which of the two columns is the northing is told by its size (southern northings are millions of metres).
 */
export function parseBdgdPoints(text: string, fuso: number): PontoBdgd[] {
  return atLeastOne(
    readRows(text).map((row, index) => {
      requireColumns(row, 4, 'idConcessionaria; ativo; x; y');
      const [idConcessionaria = '', ativoText = '', first, second] = row.cells;
      const ativo = BDGD_ATIVOS.find((known) => known.toLowerCase() === ativoText.toLowerCase());
      if (!ativo) {
        throw new FileParseError(
          `tipo de ativo desconhecido "${ativoText}" (use ${BDGD_ATIVOS.join(', ')}).`,
          row.line,
        );
      }
      const a = readNumber(first, 'x', row.line);
      const b = readNumber(second, 'y', row.line);
      const point = utmToLatLng(a > 1_000_000 ? { x: b, y: a } : { x: a, y: b }, fuso);
      checkInBrazil(point, row.line);
      return { ...base(point), idConcessionaria, ativo, sequencial: index + 1 };
    }),
  );
}

type FiscalizacaoOriginal = Exclude<(typeof FISCALIZACAO_COLUMNS)[number], 'x' | 'y'>;

export type PontoFiscalizacao = PontoBase & Record<FiscalizacaoOriginal, string>;

/**
 * Fiscalização: a header row naming the columns (any order, any case) x; y; barramento; tipo; material; altura;
 * carga; tipoEquipamento; placa; potencia; fases; medidor; faseConsumidor. x/y are UTM zone 22 band L whatever
 * the project's fuso (SPEC.md section 9). Only x and y are required; an absent column leaves its value empty.
 */
export function parseFiscalizacaoPoints(text: string): PontoFiscalizacao[] {
  const [header, ...rows] = readRows(text);
  if (!header) throw new FileParseError('O arquivo não contém nenhum ponto.');
  const position = new Map(header.cells.map((name, index) => [name.toLowerCase(), index]));
  const indexOf = (column: string) => position.get(column.toLowerCase());
  const xIndex = indexOf('x');
  const yIndex = indexOf('y');
  if (xIndex === undefined || yIndex === undefined) {
    throw new FileParseError(
      `o cabeçalho deve nomear as colunas (${FISCALIZACAO_COLUMNS.join(';')}).`,
      header.line,
    );
  }
  return atLeastOne(
    rows.map((row) => {
      const point = utmToLatLng(
        { x: readNumber(row.cells[xIndex], 'x', row.line), y: readNumber(row.cells[yIndex], 'y', row.line) },
        FISCALIZACAO_FUSO,
      );
      checkInBrazil(point, row.line);
      const originals = Object.fromEntries(
        FISCALIZACAO_COLUMNS.filter((column) => column !== 'x' && column !== 'y').map((column) => {
          const index = indexOf(column);
          return [column, index === undefined ? '' : (row.cells[index] ?? '')];
        }),
      ) as Record<FiscalizacaoOriginal, string>; // built from exactly the FiscalizacaoOriginal keys above
      return { ...base(point), ...originals };
    }),
  );
}

export type PontoLptAgiltec = Record<(typeof LPT_AGILTEC_COLUMNS)[number], string>;

/** LPT Agiltec: header row skipped; os; nome; cpf; email; telefone1; propriedade; comunidade; municipio; polo; regional. */
export function parseLptAgiltecPoints(text: string): PontoLptAgiltec[] {
  const rows = readRows(text).slice(1);
  return atLeastOne(
    rows.map((row) => {
      requireColumns(row, LPT_AGILTEC_COLUMNS.length, LPT_AGILTEC_COLUMNS.join('; '));
      if (!row.cells[0]) throw new FileParseError('a coluna os está vazia.', row.line);
      return Object.fromEntries(
        LPT_AGILTEC_COLUMNS.map((column, index) => [column, row.cells[index] ?? '']),
      ) as PontoLptAgiltec; // every column of LPT_AGILTEC_COLUMNS is set above
    }),
  );
}
