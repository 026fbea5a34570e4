// Shapes the project map draws, independent of Leaflet so pure code can build them.
export type LatLngTuple = [number, number];

export interface MapZona {
  key: string;
  label: string;
  /** Outer ring, [lat, lng] per vertex. */
  anel: LatLngTuple[];
}

export interface MapPontos {
  ip: LatLngTuple[];
  bdgd: LatLngTuple[];
  fiscalizacao: LatLngTuple[];
}
