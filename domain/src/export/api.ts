// The answers of the extraction and report routes (SPEC.md sections 2 'Extractor' and 'Reports screen', 7, 9),
// shared by the server that builds them and the back office that reads them.
import type { Fluxo } from '../flows/keys.ts';

/** A day as the Extrator lists it (GET /api/projeto/{id}/datas), in the project's local time (America/Sao_Paulo). */
export interface Data {
  ano: number;
  mes: number;
  dia: number;
}

/** One item of GET /api/projeto/{id}/datas: the day both flat and under `data` (SPEC.md 7 'list with data'). */
export interface DataItem extends Data {
  data: Data;
}

/** One file the Extrator offers: its button's label, where to get it, and how many records it holds. */
export interface Arquivo {
  /** Stable name of the export ('unidades', 'ip', 'vegetacao-producao', 'fotos'). */
  id: string;
  label: string;
  /** Absolute path under /api, query string included (date range, technician). */
  url: string;
  /** The file's name when saved ('Projeto X - Unidades.csv'). */
  nome: string;
  /** Records (for a production file, its rows: technician-days) the file holds; a CSV button shows only above 0. */
  registros: number;
}

/**
 * GET /api/extrator/{projetoId}?dataInicio=YYYY-MM-DD&dataFim=YYYY-MM-DD (both optional, end day inclusive):
 * what the Extrator shows for a project. `erro` is set when the files cannot be made right (no fuso: UTM needs it).
 */
export interface Extracao {
  projeto: { id: string; nome: string; fuso: number | null };
  kml: Arquivo[];
  csv: Arquivo[];
  /** The photos of the date range in one zip ('Fotos (zip)'), null when there are none. */
  fotos: Arquivo | null;
  /**
   * Issue 27: the period's records as a GeoPackage (a point layer per flow, its records CSV's columns) and an XLSX (a
   * sheet per file of the CSV section with rows); null when there is nothing to put in them. The server always
   * sends both; optional for the answers written before them.
   */
  geopackage?: Arquivo | null;
  xlsx?: Arquivo | null;
  erro: string | null;
}

/** One technician's day in a project (GET /api/relatorio/{projetoId}?data=YYYY-MM-DD). */
export interface RelatorioTecnico {
  tecnico: { id: string; nome: string };
  /** Records per flow collected that day (flows without records are absent). */
  contagens: Partial<Record<Fluxo, number>>;
  total: number;
  /**
   * CSV and KML of that technician and day (every flow). The same path ending in .gpkg and .xlsx gives the day as a
   * GeoPackage (a layer per flow, as the KML) and as an XLSX (the CSV's sheet): issue 27, `arquivoDoDia`.
   */
  csv: string;
  kml: string;
}

/** The technician's day (RelatorioTecnico's CSV path) as another of its files. */
export function arquivoDoDia(csv: string, formato: 'gpkg' | 'xlsx'): string {
  return csv.replace(/\.csv(?=\?|$)/, `.${formato}`);
}

/** One row of the productivity table (GET /api/relatorio/{projetoId}/produtividade?dataInicio=&dataFim=). */
export interface Produtividade {
  tecnico: { id: string; nome: string };
  /** YYYY-MM-DD */
  data: string;
  contagens: Partial<Record<Fluxo, number>>;
  total: number;
  /** First and last record of the day, epoch ms. */
  primeiro: number;
  ultimo: number;
  /** Median GPS accuracy in metres of the records that carry it, null when none does. */
  precisaoMediana: number | null;
  /** Share (0..1) of the day's records holding a photo (no flow requires more than one: README 'Extractions'). */
  fotosCompletas: number;
}
