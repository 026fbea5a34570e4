// The project form's state and rules (SPEC.md sections 2, 4, 5): fields, the files picked in this session
// (parsed in the browser only for the preview: the server parses the raw text itself), the project as
// saved, and the form-encoded body the server takes.
import { RETENCAO_COPIAS_DIAS } from '@novus/domain/constants';
import { FLUXOS, type Fluxo } from '@novus/domain/flows/keys';
import {
  FLOW_BY_KEY,
  PRELOADED_FLOWS,
  PRELOADED_FLUXOS,
  type PreloadedFluxo,
} from '@novus/domain/flows/registry';
import { MAX_KML_BYTES, parseKmlZones } from '@novus/domain/geo/kml';
import { fusoNeededText } from '@novus/domain/flows/flow';
import { FileParseError } from '@novus/domain/geo/parse-error';
import { MAX_POINT_FILE_BYTES } from '@novus/domain/geo/point-files';
import type { ProjetoDetail } from '../../api/projeto';
import type { LatLngTuple, MapPontos, MapZona } from '../../map/types';
import { PROJETO_TEXT } from './messages';

export type FileSlot = 'kml' | PreloadedFluxo;

/** A file picked in this session: its raw text goes to the server, the preview to the map. */
export interface PickedFile {
  name: string;
  text: string;
  /** Zones (KML) or points (with coordinates: LPT Agiltec has none) for the map. */
  zonas: MapZona[];
  pontos: LatLngTuple[];
  /** How many zones or points the file holds. */
  count: number;
}

export interface SavedData {
  zonas: MapZona[];
  pontos: Record<PreloadedFluxo, LatLngTuple[]>;
  counts: Record<PreloadedFluxo, number>;
}

export interface ProjetoFormState {
  nome: string;
  cliente: string;
  /** '' or '18'..'25', as the select holds it. */
  fuso: string;
  fluxos: Fluxo[];
  disponivelInterpres: boolean;
  /** The photo stamp (issue 26): on unless turned off. */
  carimboFotos: boolean;
  /** How many days the phones keep what they sent (issue 39), as the number input holds it: the server checks it. */
  retencaoCopiasDias: string;
  files: Partial<Record<FileSlot, PickedFile>>;
  fileErrors: Partial<Record<FileSlot, string>>;
  /** What the server has (edit), shown while no new file replaces it. */
  saved: SavedData;
}

export type ProjetoFormAction =
  | { type: 'loaded'; projeto: ProjetoDetail }
  | { type: 'reset' }
  | { type: 'field'; field: 'nome' | 'cliente' | 'fuso' | 'retencaoCopiasDias'; value: string }
  | { type: 'opcao'; field: 'disponivelInterpres' | 'carimboFotos'; value: boolean }
  | { type: 'fluxo'; fluxo: Fluxo; checked: boolean }
  | { type: 'filePicked'; slot: FileSlot; file: PickedFile }
  | { type: 'fileRefused'; slot: FileSlot; message: string }
  | { type: 'fileCleared'; slot: FileSlot };

/** One value per preloaded flow. */
const perPreloaded = <T>(value: (fluxo: PreloadedFluxo) => T) =>
  Object.fromEntries(PRELOADED_FLUXOS.map((fluxo) => [fluxo, value(fluxo)])) as Record<PreloadedFluxo, T>; // every PreloadedFluxo

const NO_SAVED: SavedData = {
  zonas: [],
  pontos: perPreloaded(() => []),
  counts: perPreloaded(() => 0),
};

export const EMPTY_PROJETO_FORM: ProjetoFormState = {
  nome: '',
  cliente: '',
  fuso: '',
  fluxos: [],
  disponivelInterpres: false,
  carimboFotos: true,
  retencaoCopiasDias: String(RETENCAO_COPIAS_DIAS),
  files: {},
  fileErrors: {},
  saved: NO_SAVED,
};

export const FILE_ACCEPT = {
  kml: '.kml',
  ...Object.fromEntries(PRELOADED_FLOWS.map((flow) => [flow.key, flow.preload.accept])),
} as Record<FileSlot, string>; // kml plus one entry per preloaded flow, which is every FileSlot

export function projetoFormReducer(state: ProjetoFormState, action: ProjetoFormAction): ProjetoFormState {
  switch (action.type) {
    case 'loaded':
      return fromProjeto(action.projeto);
    case 'reset':
      return EMPTY_PROJETO_FORM;
    case 'field': {
      // A new fuso reads again the files in the project's fuso: see rereadForFuso.
      return { ...state, [action.field]: action.value };
    }
    case 'opcao':
      return { ...state, [action.field]: action.value };
    case 'fluxo': {
      if (action.checked) {
        if (state.fluxos.includes(action.fluxo)) return state;
        return { ...state, fluxos: FLUXOS.filter((f) => f === action.fluxo || state.fluxos.includes(f)) };
      }
      // Unticking a flow clears its points (SPEC.md section 4); the server drops those not yet collected.
      const fluxos = state.fluxos.filter((f) => f !== action.fluxo);
      const slot = PRELOADED_FLUXOS.find((f) => f === action.fluxo);
      if (slot === undefined) return { ...state, fluxos };
      return {
        ...state,
        fluxos,
        files: without(state.files, slot),
        fileErrors: without(state.fileErrors, slot),
      };
    }
    case 'filePicked':
      return {
        ...state,
        files: { ...state.files, [action.slot]: action.file },
        fileErrors: without(state.fileErrors, action.slot),
      };
    case 'fileRefused':
      return refuse(state, action.slot, action.message);
    case 'fileCleared':
      return {
        ...state,
        files: without(state.files, action.slot),
        fileErrors: without(state.fileErrors, action.slot),
      };
  }
}

function refuse(state: ProjetoFormState, slot: FileSlot, message: string): ProjetoFormState {
  return {
    ...state,
    files: without(state.files, slot),
    fileErrors: { ...state.fileErrors, [slot]: message },
  };
}

function without<K extends string, V>(record: Partial<Record<K, V>>, key: K): Partial<Record<K, V>> {
  const copy = { ...record };
  delete copy[key];
  return copy;
}

/** A picked file read for the preview: 'filePicked', or 'fileRefused' with the Portuguese message (and line). */
export async function readFile(
  slot: FileSlot,
  name: string,
  text: string,
  fuso: string,
): Promise<ProjetoFormAction> {
  try {
    return { type: 'filePicked', slot, file: await parseFile(slot, name, text, fuso) };
  } catch (error) {
    if (!(error instanceof FileParseError)) throw error;
    return { type: 'fileRefused', slot, message: `${name}: ${error.message}` };
  }
}

/** The files whose coordinates are UTM in the project's fuso (BDGD's), read again in a new one. */
export async function rereadForFuso(state: ProjetoFormState, fuso: string): Promise<ProjetoFormAction[]> {
  const slots = PRELOADED_FLOWS.filter((flow) => flow.preload.utmZone === 'projeto').map((flow) => flow.key);
  return Promise.all(
    slots.flatMap((slot) => {
      const file = state.files[slot];
      return file === undefined ? [] : [readFile(slot, file.name, file.text, fuso)];
    }),
  );
}

const coordsOf = (pontos: { coordenadas?: [number, number] }[]): LatLngTuple[] =>
  pontos.flatMap((ponto) => (ponto.coordenadas === undefined ? [] : [ponto.coordenadas]));

function fromProjeto(projeto: ProjetoDetail): ProjetoFormState {
  const byFluxo = projeto.pontos;
  return {
    ...EMPTY_PROJETO_FORM,
    nome: projeto.nome,
    cliente: projeto.cliente,
    fuso: projeto.fuso === null ? '' : String(projeto.fuso),
    fluxos: FLUXOS.filter((fluxo) => projeto.fluxos.includes(fluxo)),
    disponivelInterpres: projeto.disponivelInterpres,
    carimboFotos: projeto.carimboFotos,
    retencaoCopiasDias: String(projeto.retencaoCopiasDias),
    saved: {
      zonas: projeto.zonas.map((zona) => ({
        key: zona._id,
        label: zona.label,
        anel: zona.poligono.map(({ lat, lng }): LatLngTuple => [lat, lng]),
      })),
      pontos: perPreloaded((fluxo) => coordsOf(byFluxo[fluxo])),
      counts: perPreloaded((fluxo) => byFluxo[fluxo].length),
    },
  };
}

/** Reads a picked file for the preview; rejects with FileParseError with the Portuguese message (and line). */
async function parseFile(slot: FileSlot, name: string, text: string, fuso: string): Promise<PickedFile> {
  const extensions = FILE_ACCEPT[slot].split(',');
  if (!extensions.some((extension) => name.toLowerCase().endsWith(extension))) {
    throw new FileParseError(`Apenas arquivos ${extensions.join(' ou ')} são aceitos.`);
  }
  const base = { name, text, zonas: [], pontos: [] };
  if (slot === 'kml') {
    const zonas = parseKmlZones(text).map((zona, index) => ({
      key: `${index}`,
      label: zona.label,
      anel: zona.poligono.map(({ lat, lng }): LatLngTuple => [lat, lng]),
    }));
    return { ...base, zonas, count: zonas.length };
  }
  const { preload } = FLOW_BY_KEY[slot];
  if (preload.utmZone === 'projeto' && fuso === '') throw new FileParseError(fusoNeededText(preload));
  const pontos = await preload.parse(text, fuso === '' ? undefined : Number(fuso));
  return {
    ...base,
    pontos: pontos.flatMap((ponto): LatLngTuple[] =>
      ponto.lat === null || ponto.lng === null ? [] : [[ponto.lat, ponto.lng]],
    ),
    count: pontos.length,
  };
}

/** The browser refuses what the parsers would refuse anyway, before reading it. */
export function sizeError(slot: FileSlot, bytes: number): string | null {
  const limit = slot === 'kml' ? MAX_KML_BYTES : MAX_POINT_FILE_BYTES;
  if (bytes <= limit) return null;
  return `O arquivo excede o tamanho máximo de ${limit / (1024 * 1024)} MB.`;
}

/** What the map shows: the picked files, else what is saved; nothing for an unticked flow. */
export function mapData(state: ProjetoFormState): { zonas: MapZona[]; pontos: MapPontos } {
  const pontos: MapPontos = {};
  for (const { key: fluxo, preload } of PRELOADED_FLOWS) {
    if (preload.formMapColor === null) continue;
    pontos[fluxo] = state.fluxos.includes(fluxo)
      ? (state.files[fluxo]?.pontos ?? state.saved.pontos[fluxo])
      : [];
  }
  return { zonas: state.files.kml?.zonas ?? state.saved.zonas, pontos };
}

/** The only field the browser checks (SPEC.md section 5): the client select. */
export function validate(state: ProjetoFormState): { cliente?: string } {
  return state.cliente === '' ? { cliente: PROJETO_TEXT.clienteRequired } : {};
}

/**
 * The form-encoded body of POST/PUT /api/projeto: one `fluxos` field per ticked flow, and the raw text of
 * only the files picked in this session (an absent `kml` or `arquivo*` keeps what the server has).
 */
export function projetoFormBody(state: ProjetoFormState, id?: string): URLSearchParams {
  const body = new URLSearchParams();
  if (id !== undefined) body.set('id', id);
  body.set('nome', state.nome);
  body.set('cliente', state.cliente);
  body.set('fuso', state.fuso);
  for (const fluxo of state.fluxos) body.append('fluxos', fluxo);
  body.set('disponivelInterpres', String(state.disponivelInterpres));
  body.set('carimboFotos', String(state.carimboFotos));
  body.set('retencaoCopiasDias', state.retencaoCopiasDias);
  const kml = state.files.kml;
  if (kml !== undefined) body.set('kml', kml.text);
  for (const flow of PRELOADED_FLOWS) {
    const file = state.files[flow.key];
    if (file !== undefined && state.fluxos.includes(flow.key)) body.set(flow.preload.fileField, file.text);
  }
  return body;
}
