// What an export reads of a record, declared once per flow (DESIGN.md 'The flow registry': export columns) and
// turned into one projected SQL query by the server, so no row is ever parsed in Node to be written out.

/** Where a column's value comes from. */
export type Valor =
  /** A text field of the record (`dados->>'campo'`); neutralised when it starts like a spreadsheet formula. */
  | { campo: string }
  /** A yes/no field of the record, written 'SIM' or 'NAO'. */
  | { simNao: string }
  /** Whether a list field of the record holds a value ('SIM' / 'NAO'): the vegetation's flags per network. */
  | { contem: string; valor: string }
  /**
   * What every record has: its id, flow (its label), technician, date and time, UTM position, photo count; and its
   * review (issue 24): the state's label, the revision number, the flags' labels with their values.
   */
  | {
      registro:
        | 'id'
        | 'fluxo'
        | 'tecnico'
        | 'dataHora'
        | 'utmE'
        | 'utmN'
        | 'fotos'
        | 'revisao'
        | 'versao'
        | 'sinalizacoes';
    }
  /** How many units are fed by this pole (SPEC.md 3 'derived qtdDrop'). */
  | { derivado: 'qtdDrop' };

export interface Coluna {
  /** The CSV header (SPEC.md 9: fixed headers) and the KML data name. */
  header: string;
  valor: Valor;
  /**
   * A number that may have decimals (UTM, heights, distances): a CSV writes a plain decimal of it ('4.5') with the
   * file's decimal separator, a comma unless asked for a point, so that a spreadsheet in pt-BR reads a number.
   * Anything else in it (an integer, '10 m', an id like '1.2.3') is written as it is. KML keeps the point.
   */
  decimal?: boolean;
}

/**
 * A CSV file the Extrator offers for a flow: `registros` has one row per collected record with `colunas`;
 * `producao` is TECNICO;DATA;QUANTIDADE, the records of each technician per day (SPEC.md 9).
 */
export type CsvExport = {
  /** Stable name: the file's path under /api/extrator/{projeto}/{id}.csv. */
  id: string;
  label: string;
} & ({ kind: 'registros'; colunas: readonly Coluna[]; porTecnico: boolean } | { kind: 'producao' });

/** How a flow's records are drawn in KML: the layer's name (its colour is the map's, `FlowDefinition.map`), and a zip. */
export interface KmlExport {
  label: string;
  /** Placemark name. */
  nome: Valor;
  /** Served as a zip holding the KML and the CSV, named after the project (SPEC.md 2: the BDGD zip). */
  zip: boolean;
}

export interface FlowExports {
  csv: readonly CsvExport[];
  kml: KmlExport;
  /** The columns every KML placemark and the reports' CSV carry (the flow's main CSV columns). */
  colunas: readonly Coluna[];
}

/** The columns every record export starts with: which record, who, when, where (UTM easting/northing). */
export const COLUNAS_BASE: readonly Coluna[] = [
  { header: 'ID', valor: { registro: 'id' } },
  { header: 'TECNICO', valor: { registro: 'tecnico' } },
  { header: 'DATA', valor: { registro: 'dataHora' } },
  { header: 'UTM_E', valor: { registro: 'utmE' }, decimal: true },
  { header: 'UTM_N', valor: { registro: 'utmN' }, decimal: true },
];

const FOTOS: Coluna = { header: 'FOTOS', valor: { registro: 'fotos' } };

/** A record export: the base columns, the flow's own, then the photo count. */
export function registrosCsv(
  id: string,
  label: string,
  proprias: readonly Coluna[],
  options: { porTecnico?: boolean; base?: readonly Coluna[] } = {},
): CsvExport {
  return {
    id,
    label,
    kind: 'registros',
    colunas: [...(options.base ?? COLUNAS_BASE), ...proprias, FOTOS],
    porTecnico: options.porTecnico ?? false,
  };
}

/** TECNICO;DATA;QUANTIDADE: records per technician per day (SPEC.md 9, vegetation production). */
export function producaoCsv(id: string, label: string): CsvExport {
  return { id, label, kind: 'producao' };
}

export const PRODUCAO_HEADERS = ['TECNICO', 'DATA', 'QUANTIDADE'] as const;

/** Shorthands for declarations: a text field, a field holding a decimal number and a yes/no field. */
export const campo = (header: string, name: string): Coluna => ({ header, valor: { campo: name } });
export const decimal = (header: string, name: string): Coluna => ({
  header,
  valor: { campo: name },
  decimal: true,
});
export const simNao = (header: string, name: string): Coluna => ({ header, valor: { simNao: name } });

/** The time zone of the days the Extrator and the reports count (records carry UTC instants). */
export const FUSO_HORARIO = 'America/Sao_Paulo';

/** A value a spreadsheet would run as a formula (OWASP 'CSV injection'): it starts with one of these. */
export const FORMULA_START = /^[=+\-@\t\r]/;
