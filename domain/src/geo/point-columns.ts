// The columns and limits of the project's point files, apart from their parsers (point-files.ts), so the flow
// declarations and the technician's app name them without loading the parsers (papaparse, proj4).
export const MAX_POINT_FILE_BYTES = 20 * 1024 * 1024;

/** Fiscalização files are in UTM zone 22, band L, whatever the project's fuso (SPEC.md section 9). */
export const FISCALIZACAO_FUSO = 22;

export const BDGD_ATIVOS = [
  'Poste',
  'Medidor',
  'Chave',
  'Transformador',
  'Religador',
  'BancoCapacitor',
  'regulador',
] as const;

export const FISCALIZACAO_COLUMNS = [
  'x',
  'y',
  'barramento',
  'tipo',
  'material',
  'altura',
  'carga',
  'tipoEquipamento',
  'placa',
  'potencia',
  'fases',
  'medidor',
  'faseConsumidor',
] as const;

export const LPT_AGILTEC_COLUMNS = [
  'os',
  'nome',
  'cpf',
  'email',
  'telefone1',
  'propriedade',
  'comunidade',
  'municipio',
  'polo',
  'regional',
] as const;
