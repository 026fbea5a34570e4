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

/** A pole's own fields as the form sends them (a double-T concrete pole, 11 m, 300 daN, grounded). */
export const POSTE_CAMPOS = {
  tipo: 'CONCRETO DUPLO T',
  altura: '11',
  carga: '300',
  tipoRedeEletrica: 'MISTA',
  aterramento: 'true',
  equipamentoRedeEnergia: 'NAO POSSUI',
};

/** An IP point of a project's `pontosIP` field: IP-n of a circuit, at [lat, lng]. */
export const pontoIP = (
  n: number,
  coordenadas: [number, number],
  idCircuito: string,
  extra: Record<string, unknown> = {},
) => ({ coordenadas, idConcessionaria: `IP-${n}`, idCircuito, ...extra });

/** A BDGD point of a project's `pontosBDGD` field: B-n, numbered n, at [lat, lng]. */
export const pontoBDGD = (n: number, coordenadas: [number, number], ativo: string) => ({
  coordenadas,
  idConcessionaria: `B-${n}`,
  ativo,
  sequencial: n,
});
