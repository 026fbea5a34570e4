// The supervisor map's layers, one per flow (SPEC.md section 2 'Supervisor'): label, colour, whether the panel
// always lists it, and the bit each takes in the mask the cluster worker filters by.
import { FLUXOS, type Fluxo } from '@novus/domain/flows/keys';
import { STATUS } from '@novus/domain/mapa/api';

export interface LayerStyle {
  /** The checkbox under 'Camadas'. */
  label: string;
  color: string;
  /** The spec's five layers are always listed; the others only when they have points. */
  always: boolean;
  /** Drawn hollow (ring only) until collected: the points the project file preloads. */
  hollowUntilCollected: boolean;
}

export const LAYER_STYLE: Record<Fluxo, LayerStyle> = {
  hc: { label: 'Unidades', color: '#1565c0', always: true, hollowUntilCollected: false },
  poste: { label: 'Postes', color: '#c62828', always: true, hollowUntilCollected: false },
  ip: { label: 'Uso M./IP', color: '#2e7d32', always: true, hollowUntilCollected: true },
  grupoA: { label: 'Grupo A', color: '#6a1b9a', always: true, hollowUntilCollected: false },
  bdgd: { label: 'BDGD', color: '#00bcd4', always: true, hollowUntilCollected: true },
  arvore: { label: 'Vegetação', color: '#1b5e20', always: false, hollowUntilCollected: false },
  lpt: { label: 'LPT', color: '#ef6c00', always: false, hollowUntilCollected: true },
  fiscalizacao: { label: 'Fiscalização', color: '#0d47a1', always: false, hollowUntilCollected: true },
  lpt2: { label: 'LPT Agiltec', color: '#5d4037', always: false, hollowUntilCollected: false },
};

/** The panel's order: the spec's five, then the others in registry order. */
export const PANEL_ORDER: readonly Fluxo[] = [
  'hc',
  'poste',
  'ip',
  'grupoA',
  'bdgd',
  'arvore',
  'lpt',
  'fiscalizacao',
  'lpt2',
];

/** A layer's number in the worker's messages and in the mask: its place in FLUXOS. */
export function layerOf(fluxo: Fluxo): number {
  return FLUXOS.indexOf(fluxo);
}

export function fluxoOfLayer(layer: number): Fluxo | undefined {
  return FLUXOS[layer];
}

export const ALL_LAYERS_MASK = (1 << FLUXOS.length) - 1;

/** The bit mask of the ticked layers. */
export function maskOf(visible: Readonly<Record<Fluxo, boolean>>): number {
  let mask = 0;
  for (const fluxo of FLUXOS) if (visible[fluxo]) mask |= 1 << layerOf(fluxo);
  return mask;
}

export function allVisible(): Record<Fluxo, boolean> {
  return Object.fromEntries(FLUXOS.map((fluxo) => [fluxo, true])) as Record<Fluxo, boolean>; // every Fluxo
}

/** The layers the panel lists, in its order: the spec's five, plus any other that has points. */
export function listedLayers(counts: Readonly<Record<Fluxo, number>>): Fluxo[] {
  return PANEL_ORDER.filter((fluxo) => LAYER_STYLE[fluxo].always || counts[fluxo] > 0);
}

export interface PointPaint {
  color: string;
  hollow: boolean;
  conflito: boolean;
}

/** How a point is painted, from its layer and its STATUS bits. */
export function pointPaint(fluxo: Fluxo, status: number): PointPaint {
  const style = LAYER_STYLE[fluxo];
  return {
    color: style.color,
    hollow: style.hollowUntilCollected && (status & STATUS.coletado) === 0,
    conflito: (status & STATUS.conflito) !== 0,
  };
}

/**
 * The order points are painted in, first to last: the project file's preloaded points are the backdrop (many,
 * and hollow until collected), what technicians collected goes on top, units last. A click picks the topmost.
 */
const PAINT_ORDER: readonly Fluxo[] = [
  'ip',
  'bdgd',
  'fiscalizacao',
  'lpt',
  'lpt2',
  'arvore',
  'grupoA',
  'poste',
  'hc',
];
export const PAINT_RANKS = PAINT_ORDER.length * 2;

/** A point's place in the paint order, 0 (painted first) to PAINT_RANKS - 1: hollow before filled, then by layer. */
export function paintRank(fluxo: Fluxo, hollow: boolean): number {
  return (hollow ? 0 : PAINT_ORDER.length) + PAINT_ORDER.indexOf(fluxo);
}

/** The layer and fill of a paint rank. */
export function paintOfRank(rank: number): { fluxo: Fluxo; hollow: boolean } {
  const hollow = rank < PAINT_ORDER.length;
  return { fluxo: PAINT_ORDER[rank % PAINT_ORDER.length] ?? 'hc', hollow };
}

/** Black or white, whichever reads better on `hex` (WCAG contrast), for a cluster's count. */
export function textColorOn(hex: string): '#000000' | '#ffffff' {
  const value = Number.parseInt(hex.slice(1), 16);
  const channel = (shift: number) => {
    const c = ((value >> shift) & 0xff) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(16) + 0.7152 * channel(8) + 0.0722 * channel(0);
  const onWhite = 1.05 / (luminance + 0.05);
  const onBlack = (luminance + 0.05) / 0.05;
  return onWhite >= onBlack ? '#ffffff' : '#000000';
}
