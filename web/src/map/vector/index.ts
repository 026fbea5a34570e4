// The vector basemap layer (issue 23): a project's MVT package drawn with a street style inside a react-leaflet
// map. Loaded only when a map screen shows a vector package (React.lazy), never on the first page.
import { lazy } from 'react';

export interface VectorBasemapProps {
  /** The package's tile template: /api/projeto/{id}/mapa-base/{z}/{x}/{y}?v=… */
  url: string;
  /** The archive's zoom range: past maxNativeZoom the last tiles are overzoomed. */
  minNativeZoom: number;
  maxNativeZoom: number;
  /** The archive's layers (metadata vector_layers). */
  camadas: readonly string[];
  attribution?: string | null;
  /** The archive's bounds (degrees): no tile is asked for outside them, where the server has none (404). */
  limites?: { oeste: number; sul: number; leste: number; norte: number } | null;
}

/** Rendered inside a react-leaflet MapContainer (or a LayersControl.BaseLayer). */
export const VectorBasemap = lazy(() => import('./VectorBasemapLayer'));
