// The supervisor map's points on the main thread, decoded from MapaProjeto's compact layers into typed arrays:
// the canvas draws from them, popups read ids from them, and live events add or move points in them.
import { FLUXOS, type Fluxo } from '@novus/domain/flows/keys';
import {
  STATUS,
  STATUS_DIGITS,
  uuidFromCompact,
  type CamadaCompacta,
  type PontoEvento,
} from '@novus/domain/mapa/api';

/** Characters of one id in `CamadaCompacta.ids`. */
const ID_LENGTH = 22;
/** Coordinates travel in millionths of a degree. */
export const COORD_SCALE = 1e6;

/** One layer's points. Arrays may be longer than `count` (room for live additions). */
export interface Camada {
  fluxo: Fluxo;
  count: number;
  /** The 22-character ids, concatenated. */
  ids: string;
  /** lat, lng of each point in millionths of a degree, interleaved. */
  coords: Int32Array;
  /** STATUS bits of each point. */
  status: Uint8Array;
}

export interface PontoRef {
  fluxo: Fluxo;
  index: number;
}

export type Bounds = [[number, number], [number, number]];

/** STATUS bits by character code of STATUS_DIGITS (-1: no status character), one lookup per point. */
const STATUS_OF_CODE = (() => {
  const table = new Int8Array(128).fill(-1);
  for (let bits = 0; bits < STATUS_DIGITS.length; bits += 1) table[STATUS_DIGITS.charCodeAt(bits)] = bits;
  return table;
})();
/** Every STATUS bit a point may carry. */
const STATUS_MASK = STATUS_DIGITS.length - 1;

/** The layers could not be read: the answer breaks the compact form's rules. */
export class CompactFormError extends Error {
  constructor(fluxo: Fluxo, detail: string) {
    super(`Camada ${fluxo} inválida: ${detail}`);
    this.name = 'CompactFormError';
  }
}

/** Decodes one layer, checking that ids, coordinates and status describe the same number of points. */
export function decodeCamada(camada: CamadaCompacta): Camada {
  const count = camada.status.length;
  if (camada.ids.length !== count * ID_LENGTH)
    throw new CompactFormError(camada.fluxo, `${camada.ids.length / ID_LENGTH} ids para ${count} pontos`);
  if (camada.coords.length !== count * 2)
    throw new CompactFormError(camada.fluxo, `${camada.coords.length} coordenadas para ${count} pontos`);
  const coords = Int32Array.from(camada.coords);
  const status = new Uint8Array(count);
  for (let i = 0; i < count; i += 1) {
    const bits = STATUS_OF_CODE[camada.status.charCodeAt(i)] ?? -1;
    if (bits < 0) throw new CompactFormError(camada.fluxo, `status '${camada.status[i]}'`);
    status[i] = bits;
  }
  return { fluxo: camada.fluxo, count, ids: camada.ids, coords, status };
}

/**
 * The layers with only their flagged points (STATUS.sinalizado), still in the compact form: 'Somente sinalizados'
 * builds its store from them, one pass over the strings, with no request.
 */
export function soSinalizados(camadas: readonly CamadaCompacta[]): CamadaCompacta[] {
  return camadas.map((camada) => {
    let ids = '';
    let status = '';
    const coords: number[] = [];
    for (let i = 0; i < camada.status.length; i += 1) {
      const bits = STATUS_OF_CODE[camada.status.charCodeAt(i)] ?? -1;
      if (bits < 0 || (bits & STATUS.sinalizado) === 0) continue;
      ids += camada.ids.slice(i * ID_LENGTH, (i + 1) * ID_LENGTH);
      status += camada.status[i] ?? '';
      coords.push(camada.coords[2 * i] ?? 0, camada.coords[2 * i + 1] ?? 0);
    }
    return { fluxo: camada.fluxo, ids, coords, status };
  });
}

/** The 22-character base64url form of a uuid, the inverse of domain's uuidFromCompact. */
export function compactFromUuid(uuid: string): string {
  const hex = uuid.replace(/-/g, '');
  let binary = '';
  for (let i = 0; i < 32; i += 2) binary += String.fromCharCode(Number.parseInt(hex.slice(i, i + 2), 16));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function emptyCamada(fluxo: Fluxo): Camada {
  return { fluxo, count: 0, ids: '', coords: new Int32Array(0), status: new Uint8Array(0) };
}

export interface Upsert {
  ref: PontoRef;
  /** A point the layers did not have. */
  created: boolean;
}

/** Every layer of a loaded project, all nine present (empty when the answer had none). */
export class PontosStore {
  readonly camadas: Record<Fluxo, Camada>;
  /** compact id -> index, per layer, built on the first live event that needs it. */
  private readonly indexes = new Map<Fluxo, Map<string, number>>();

  constructor(camadas: readonly CamadaCompacta[]) {
    const decoded = Object.fromEntries(FLUXOS.map((fluxo) => [fluxo, emptyCamada(fluxo)])) as Record<
      Fluxo,
      Camada
    >; // one entry per Fluxo
    for (const camada of camadas) decoded[camada.fluxo] = decodeCamada(camada);
    this.camadas = decoded;
  }

  count(fluxo: Fluxo): number {
    return this.camadas[fluxo].count;
  }

  counts(): Record<Fluxo, number> {
    return Object.fromEntries(FLUXOS.map((fluxo) => [fluxo, this.camadas[fluxo].count])) as Record<
      Fluxo,
      number
    >; // one entry per Fluxo
  }

  total(): number {
    return FLUXOS.reduce((sum, fluxo) => sum + this.camadas[fluxo].count, 0);
  }

  /** The record's uuid, as /api/registro/{id} takes it. */
  uuidAt({ fluxo, index }: PontoRef): string {
    const camada = this.camadas[fluxo];
    return uuidFromCompact(camada.ids.slice(index * ID_LENGTH, (index + 1) * ID_LENGTH));
  }

  latLngAt({ fluxo, index }: PontoRef): [number, number] {
    const { coords } = this.camadas[fluxo];
    return [(coords[2 * index] ?? 0) / COORD_SCALE, (coords[2 * index + 1] ?? 0) / COORD_SCALE];
  }

  statusAt({ fluxo, index }: PontoRef): number {
    return this.camadas[fluxo].status[index] ?? 0;
  }

  /** The box around every point of every layer, or null when there is none. */
  bounds(): Bounds | null {
    let south = Infinity;
    let west = Infinity;
    let north = -Infinity;
    let east = -Infinity;
    for (const fluxo of FLUXOS) {
      const { coords, count } = this.camadas[fluxo];
      for (let i = 0; i < count; i += 1) {
        const lat = coords[2 * i] ?? 0;
        const lng = coords[2 * i + 1] ?? 0;
        if (lat < south) south = lat;
        if (lat > north) north = lat;
        if (lng < west) west = lng;
        if (lng > east) east = lng;
      }
    }
    if (!Number.isFinite(south)) return null;
    return [
      [south / COORD_SCALE, west / COORD_SCALE],
      [north / COORD_SCALE, east / COORD_SCALE],
    ];
  }

  /** Whether the layers already hold the event's record. */
  has(evento: Pick<PontoEvento, 'fluxo' | 'id'>): boolean {
    return this.indexOf(evento.fluxo, compactFromUuid(evento.id)) !== undefined;
  }

  /** Adds the event's point, or moves and restatuses the one with its id. */
  upsert(evento: PontoEvento): Upsert {
    return this.put(
      evento.fluxo,
      compactFromUuid(evento.id),
      Math.round(evento.lat * COORD_SCALE),
      Math.round(evento.lng * COORD_SCALE),
      evento.status,
    );
  }

  /** Adds a point by its compact id (coordinates in millionths of a degree), or moves and restatuses it. */
  put(fluxo: Fluxo, compact: string, lat: number, lng: number, status: number): Upsert {
    const camada = this.camadas[fluxo];
    const found = this.indexOf(fluxo, compact);
    const index = found ?? camada.count;
    if (found === undefined) {
      this.grow(camada);
      camada.ids += compact;
      camada.count += 1;
      this.indexes.get(fluxo)?.set(compact, index);
    }
    camada.coords[2 * index] = lat;
    camada.coords[2 * index + 1] = lng;
    camada.status[index] = status & STATUS_MASK;
    return { ref: { fluxo, index }, created: found === undefined };
  }

  private indexOf(fluxo: Fluxo, compact: string): number | undefined {
    let index = this.indexes.get(fluxo);
    if (index === undefined) {
      const { ids, count } = this.camadas[fluxo];
      index = new Map();
      for (let i = 0; i < count; i += 1) index.set(ids.slice(i * ID_LENGTH, (i + 1) * ID_LENGTH), i);
      this.indexes.set(fluxo, index);
    }
    return index.get(compact);
  }

  /** Makes room for one more point, doubling so a stream of additions copies rarely. */
  private grow(camada: Camada): void {
    if (camada.status.length > camada.count) return;
    const capacity = Math.max(16, camada.count * 2);
    const coords = new Int32Array(capacity * 2);
    coords.set(camada.coords.subarray(0, camada.count * 2));
    const status = new Uint8Array(capacity);
    status.set(camada.status.subarray(0, camada.count));
    camada.coords = coords;
    camada.status = status;
  }
}
