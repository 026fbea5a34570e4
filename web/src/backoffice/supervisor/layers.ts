// The supervisor map's layers, one per flow (SPEC.md section 2 'Supervisor'): label, colour, whether the panel
// always lists it (all from each flow's declaration), and the bit each takes in the mask the cluster worker filters by.
import type { FlowDefinition } from '@novus/domain/flows/flow';
import { FLUXOS, type Fluxo } from '@novus/domain/flows/keys';
import { FLOW_BY_KEY, FLOWS } from '@novus/domain/flows/registry';
import { STATUS } from '@novus/domain/mapa/api';
import type { EstadoRevisao } from '@novus/domain/revisao';

const byOrder = (order: (flow: FlowDefinition) => number): readonly Fluxo[] =>
  [...FLOWS].sort((a, b) => order(a) - order(b)).map((flow) => flow.key);

/** The panel's order: the spec's five, then the others. */
export const PANEL_ORDER = byOrder((flow) => flow.map.panelOrder);

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
  return PANEL_ORDER.filter((fluxo) => FLOW_BY_KEY[fluxo].map.alwaysListed || counts[fluxo] > 0);
}

export interface PointPaint {
  color: string;
  hollow: boolean;
  conflito: boolean;
}

/** How a point is painted, from its layer and its STATUS bits. */
export function pointPaint(fluxo: Fluxo, status: number): PointPaint {
  const style = FLOW_BY_KEY[fluxo].map;
  return {
    color: style.color,
    hollow: style.hollowUntilCollected && (status & STATUS.coletado) === 0,
    conflito: (status & STATUS.conflito) !== 0,
  };
}

/** The order points are painted in, first to last (each flow's `map.paintOrder`). */
const PAINT_ORDER = byOrder((flow) => flow.map.paintOrder);
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

/** How the points are coloured: by their layer (as always), or by their review state (issue 24). */
export type Colorir = 'fluxo' | 'revisao';

/** A review state's colour on the map: pendente grey, aprovado green, reprovado red. */
export const REVISAO_CORES: Record<EstadoRevisao, string> = {
  pendente: '#757575',
  aprovado: '#2e7d32',
  reprovado: '#c62828',
};
export type EstadoPonto = EstadoRevisao;
/** Painted in this order: a rejected point on top, where the eye should go. */
const REVISAO_ORDEM: readonly EstadoPonto[] = ['pendente', 'aprovado', 'reprovado'];

/** The review state of a point's STATUS bits. */
export function estadoDeStatus(status: number): EstadoPonto {
  if ((status & STATUS.reprovado) !== 0) return 'reprovado';
  if ((status & STATUS.aprovado) !== 0) return 'aprovado';
  return 'pendente';
}

/** Every rank of either colouring: the layers' PAINT_RANKS, then the review states' (hollow, then filled). */
export const ALL_RANKS = PAINT_RANKS + REVISAO_ORDEM.length * 2;

/** A point's rank when coloured by review: after every layer rank, hollow before filled, reprovado last. */
export function revisaoRank(hollow: boolean, status: number): number {
  return PAINT_RANKS + (hollow ? 0 : REVISAO_ORDEM.length) + REVISAO_ORDEM.indexOf(estadoDeStatus(status));
}

/** The colour and fill of any rank (the layers' or the review states'). */
export function colorOfRank(rank: number): { color: string; hollow: boolean } {
  if (rank < PAINT_RANKS) {
    const { fluxo, hollow } = paintOfRank(rank);
    return { color: FLOW_BY_KEY[fluxo].map.color, hollow };
  }
  const review = rank - PAINT_RANKS;
  const estado = REVISAO_ORDEM[review % REVISAO_ORDEM.length] ?? 'pendente';
  return { color: REVISAO_CORES[estado], hollow: review < REVISAO_ORDEM.length };
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
