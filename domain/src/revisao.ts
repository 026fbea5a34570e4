// Quality control (issue 24): the automatic flags the server sets on a record at upload, the review states a
// back-office reviewer moves it through, and the project's thresholds. Codes are data (stored, filtered, exported);
// labels are what people read.

/** A flag's code, as stored on the record (`registros.flags`) and filtered by the review list and the exports. */
export const FLAG_CODIGOS = [
  'precisao_baixa',
  'sem_precisao',
  'fora_da_zona',
  'duplicata',
  'poucas_fotos',
  'foto_hora',
  'foto_local',
  'ritmo',
] as const;
export type FlagCodigo = (typeof FLAG_CODIGOS)[number];

/** One flag of a record: its code and what was measured (metres, minutes, photos; null when nothing was). */
export interface Flag {
  codigo: FlagCodigo;
  valor: number | null;
}

export const FLAG_LABELS: Record<FlagCodigo, string> = {
  precisao_baixa: 'Precisão do GPS acima do limite',
  sem_precisao: 'Sem precisão do GPS',
  fora_da_zona: 'Fora das zonas do técnico',
  duplicata: 'Possível duplicata',
  poucas_fotos: 'Fotos a menos',
  foto_hora: 'Hora da foto distante do registro',
  foto_local: 'Local da foto distante do registro',
  ritmo: 'Deslocamento impossível',
};

/** The unit of a flag's `valor`, for showing it ('12,5 m'). */
export const FLAG_UNIDADES: Record<FlagCodigo, string> = {
  precisao_baixa: 'm',
  sem_precisao: '',
  fora_da_zona: '',
  duplicata: 'm',
  poucas_fotos: 'fotos',
  foto_hora: 'min',
  foto_local: 'm',
  ritmo: 'm',
};

export const ESTADOS_REVISAO = ['pendente', 'aprovado', 'reprovado'] as const;
export type EstadoRevisao = (typeof ESTADOS_REVISAO)[number];

export const ESTADO_LABELS: Record<EstadoRevisao, string> = {
  pendente: 'Pendente',
  aprovado: 'Aprovado',
  reprovado: 'Reprovado',
};

/** A project's thresholds (set by the administrador), with the defaults. */
export interface LimitesQualidade {
  /** GPS accuracy worse than this (metres) flags precisao_baixa. */
  precisaoMaxima: number;
  /** Another upload's record of the same flow within this distance (metres) flags duplicata. */
  distanciaDuplicata: number;
}

export const LIMITES_PADRAO: LimitesQualidade = { precisaoMaxima: 15, distanciaDuplicata: 2 };

/** Fixed rules of the flags (not project settings). */
export const REGRAS = {
  /** A photo's EXIF time further than this from the record's time flags foto_hora. */
  fotoHoraMinutos: 60,
  /** A photo's EXIF position further than this from the record's flags foto_local. */
  fotoLocalMetros: 100,
  /** The technician's previous record of the flow less than this many seconds earlier … */
  ritmoSegundos: 10,
  /** … and further than this many metres away flags ritmo. */
  ritmoMetros: 200,
} as const;

/** How many photos a record of a flow is expected to have (units: at least one; every flow asks for one). */
export const FOTOS_ESPERADAS = 1;

/** Records the review list shows at a time. */
export const REVISAO_POR_PAGINA = 50;

/** The reviewer's word on a record, as the phone shows it in 'Correções'. */
export interface Correcao {
  /** The revision that was rejected; the corrected one is sent as versao + 1. */
  versao: number;
  comentario: string;
  /** Per field (the flow's field name): what is wrong with it. */
  campos: Record<string, string>;
  revisor: string | null;
  /** When it was rejected, ms since 1970 (UTC). */
  em: number;
}
