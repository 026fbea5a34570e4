// Places the tests send: spots inside the sample zoning of Curitiba and zones as the spec's JSON field holds them.

// Inside 'Zona Centro' of docs/samples/zoneamento-curitiba.kml.
export const CENTRO = { lat: -25.435, lng: -49.275 };

/** A zone as the spec's `zonas` field sends it: a label and a GeoJSON polygon of one [lng, lat] ring. */
export const zonaJson = (label: string, ring: [number, number][]) => ({
  label,
  poligono2: { type: 'Polygon', coordinates: [ring] },
});

/** A self-crossing ring ("bow tie"), which PostGIS's validity check refuses. */
export const BOW_TIE = zonaJson('Gravata', [
  [-49.3, -25.5],
  [-49.2, -25.4],
  [-49.2, -25.5],
  [-49.3, -25.4],
  [-49.3, -25.5],
]);

/** A unit's form as the app sends it: an SDU at CENTRO, number 7, collected on 24 November 2026. */
export const unidadeForm = (id: string, projeto: string, extra: Record<string, string> = {}) => ({
  id,
  projeto,
  coordenadas: JSON.stringify(CENTRO),
  dataHora: String(Date.UTC(2026, 10, 24, 10)),
  tipoUnidade: 'SDU',
  tipoEdificacao: 'Residencial',
  tipoImovel: 'RESIDENCIAL',
  numero: '7',
  quantidade: '1',
  ...extra,
});
