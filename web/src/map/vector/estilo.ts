// The street style a vector package is drawn with, chosen from the layers its tiles hold (metadata vector_layers):
// a Protomaps extract gets the Protomaps 'light' style with Portuguese names; layers of any other schema
// (OpenMapTiles, a utility's own) get a plain style by geometry, so an unknown package still shows its shapes.
import { namedFlavor, type Flavor } from '@protomaps/basemaps';
import {
  CenteredTextSymbolizer,
  CircleSymbolizer,
  GeomType,
  LineLabelSymbolizer,
  LineSymbolizer,
  PolygonSymbolizer,
  labelRules,
  paintRules,
  type LabelRule,
  type PaintRule,
} from 'protomaps-leaflet';

/** The layers of the Protomaps basemap schema (v4), which its style draws. */
export const CAMADAS_PROTOMAPS = [
  'earth',
  'landcover',
  'landuse',
  'water',
  'natural',
  'physical_line',
  'physical_point',
  'boundaries',
  'roads',
  'transit',
  'buildings',
  'places',
  'pois',
] as const;

const PROTOMAPS = new Set<string>(CAMADAS_PROTOMAPS);
const PROPRIAS_DO_PROTOMAPS = new Set<string>(
  CAMADAS_PROTOMAPS.filter((camada) => !['water', 'landuse', 'landcover'].includes(camada)),
);

/** Names in Portuguese where the data has them (Protomaps and OpenMapTiles spell it name:pt), else the local name. */
export const LINGUA = 'pt';
const NOMES = [`name:${LINGUA}`, `name_${LINGUA}`, 'name', 'nome'];

/** The name a label shows for a feature: the first of NOMES it has, as the symbolizers read them. */
export function nomeDoRotulo(props: Readonly<Record<string, unknown>>): string | undefined {
  for (const chave of NOMES) {
    const valor = props[chave];
    if (typeof valor === 'string' && valor !== '') return valor;
  }
  return undefined;
}

/** What a layer of an unknown schema looks like, guessed from its name (English or Portuguese). */
export type Tema = 'agua' | 'edificio' | 'via' | 'verde' | 'outro';

const TEMAS: readonly [Tema, RegExp][] = [
  ['agua', /water|ocean|river|lake|agua|água|hidro|rio|lago/i],
  ['edificio', /build|edific|predio|prédio|construc|lote/i],
  ['via', /road|transport|street|highway|rail|rua|via|estrada|rodovia|logradouro|trilho/i],
  ['verde', /park|landcover|landuse|wood|forest|green|veget|parque|mata|verde|uso/i],
];

export function temaDaCamada(camada: string): Tema {
  return TEMAS.find(([, nome]) => nome.test(camada))?.[0] ?? 'outro';
}

export interface EstiloEscolhido {
  /** 'protomaps' when the package holds Protomaps layers (or says nothing of its layers). */
  esquema: 'protomaps' | 'generico';
  /** Layers the Protomaps style does not know, drawn with the plain style. */
  outras: string[];
  /** The colour under everything: the land's, so a package without an 'earth' layer is not grey. */
  fundo: string;
}

/**
 * The colours every package is drawn in: Protomaps' 'light' flavour, with darker street names (5:1 against the land,
 * where its own grey gives 2.6:1) and buildings that show through its half-transparent fill, for a phone outdoors.
 */
export const SABOR: Flavor = {
  ...namedFlavor('light'),
  roads_label_minor: '#5f5659',
  roads_label_major: '#4f4749',
  buildings: '#a39b92',
};

export function escolherEstilo(camadas: readonly string[]): EstiloEscolhido {
  // water, landuse and landcover are OpenMapTiles' names too: a Protomaps extract is told by the others.
  const protomaps = camadas.length === 0 || camadas.some((camada) => PROPRIAS_DO_PROTOMAPS.has(camada));
  // An archive without vector_layers is most likely a Protomaps extract (its tool writes them, others may not).
  const outras = protomaps ? camadas.filter((camada) => !PROTOMAPS.has(camada)) : [...camadas];
  // Protomaps' background is the grey of 'no data': where the land is not drawn as 'earth', it is the land colour.
  const fundo = camadas.length === 0 || camadas.includes('earth') ? SABOR.background : SABOR.earth;
  return { esquema: protomaps ? 'protomaps' : 'generico', outras, fundo };
}

export interface Estilo {
  paintRules: PaintRule[];
  labelRules: LabelRule[];
  backgroundColor: string;
}

/** The rules protomaps-leaflet draws a package with. */
export function estiloDoPacote(camadas: readonly string[]): Estilo {
  const escolhido = escolherEstilo(camadas);
  const generico = regrasGenericas(escolhido.outras);
  if (escolhido.esquema === 'generico') return { ...generico, backgroundColor: escolhido.fundo };
  return {
    paintRules: comOutras(paintRules(SABOR), generico.paintRules),
    labelRules: [...labelRules(SABOR, LINGUA), ...generico.labelRules],
    backgroundColor: escolhido.fundo,
  };
}

/** A package's own layers among the Protomaps rules: over the land, the water and the buildings, under the streets. */
function comOutras(protomaps: PaintRule[], outras: PaintRule[]): PaintRule[] {
  const predios = protomaps.findIndex((regra) => regra.dataLayer === 'buildings');
  const em = predios >= 0 ? predios + 1 : protomaps.length;
  return [...protomaps.slice(0, em), ...outras, ...protomaps.slice(em)];
}

const COR: Record<Tema, { fill: string; line: string }> = {
  agua: { fill: SABOR.water, line: SABOR.water },
  edificio: { fill: SABOR.buildings, line: '#a8a19a' },
  via: { fill: SABOR.minor_a, line: '#ffffff' },
  verde: { fill: SABOR.park_b, line: SABOR.park_b },
  outro: { fill: '#d6d2cb', line: '#8c8580' },
};

const ORDEM: readonly Tema[] = ['verde', 'outro', 'agua', 'edificio', 'via'];

/** Polygons, then lines (roads last, over the rest), then points; names along lines and beside points. */
function regrasGenericas(camadas: readonly string[]): Omit<Estilo, 'backgroundColor'> {
  const porOrdem = [...camadas].sort(
    (a, b) => ORDEM.indexOf(temaDaCamada(a)) - ORDEM.indexOf(temaDaCamada(b)),
  );
  const de = (tipo: GeomType) => (_z: number, f: { geomType: GeomType }) => f.geomType === tipo;
  const poligonos: PaintRule[] = porOrdem.map((camada) => ({
    dataLayer: camada,
    filter: de(GeomType.Polygon),
    symbolizer: new PolygonSymbolizer({ fill: COR[temaDaCamada(camada)].fill, opacity: 0.9 }),
  }));
  const linhas: PaintRule[] = porOrdem.flatMap((camada): PaintRule[] => {
    const tema = temaDaCamada(camada);
    const filter = de(GeomType.Line);
    if (tema !== 'via') {
      return [
        { dataLayer: camada, filter, symbolizer: new LineSymbolizer({ color: COR[tema].line, width: 1.5 }) },
      ];
    }
    // A road is a white band with a grey edge, as on the Protomaps style.
    return [
      { dataLayer: camada, filter, symbolizer: new LineSymbolizer({ color: SABOR.minor_casing, width: 7 }) },
      { dataLayer: camada, filter, symbolizer: new LineSymbolizer({ color: COR.via.line, width: 5 }) },
    ];
  });
  const pontos: PaintRule[] = porOrdem.map((camada) => ({
    dataLayer: camada,
    filter: de(GeomType.Point),
    symbolizer: new CircleSymbolizer({ radius: 3, fill: '#6b6560', stroke: '#ffffff', width: 1 }),
  }));
  const rotulos: LabelRule[] = porOrdem.flatMap((camada): LabelRule[] => [
    {
      dataLayer: camada,
      filter: de(GeomType.Line),
      symbolizer: new LineLabelSymbolizer({
        labelProps: NOMES,
        fill: SABOR.roads_label_minor,
        stroke: SABOR.roads_label_minor_halo,
        width: 2,
        font: '400 12px sans-serif',
      }),
    },
    {
      dataLayer: camada,
      filter: (_z, f) => f.geomType !== GeomType.Line,
      symbolizer: new CenteredTextSymbolizer({
        labelProps: NOMES,
        fill: SABOR.city_label,
        stroke: SABOR.city_label_halo,
        width: 2,
        font: '400 12px sans-serif',
      }),
    },
  ]);
  return { paintRules: [...poligonos, ...linhas, ...pontos], labelRules: rotulos };
}
