// Shapes the project map draws, independent of Leaflet so pure code can build them.
import type { PreloadedFluxo } from '@novus/domain/flows/registry';

export type LatLngTuple = [number, number];

export interface MapZona {
  key: string;
  label: string;
  /** Outer ring, [lat, lng] per vertex. */
  anel: LatLngTuple[];
}

/** The preloaded points of each flow whose file has positions (its declaration's `preload.formMapColor`). */
export type MapPontos = Partial<Record<PreloadedFluxo, LatLngTuple[]>>;
