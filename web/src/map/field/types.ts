// Shapes the field map draws, apart from its components so the cluster index and the layers can share them.
export interface MapPoint {
  id: string;
  lat: number;
  lng: number;
  color: string;
  /** class of the marker, e.g. 'mapa-poste' */
  kind: string;
  label: string;
  selected?: boolean;
  /** drawn as a coloured ring with a white fill: BDGD and IP points not yet collected (SPEC.md section 4) */
  hollow?: boolean;
}
