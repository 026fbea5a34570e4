// The vector package's street style (issue 23): which style a package gets from the layers it holds, names in
// Portuguese where the data has them, and tiles the package lacks drawn as empty land; the real vector fixture of
// ../shared/realworld/pmtiles (tippecanoe, one layer of no known schema) drawn with the plain style.
import fs from 'node:fs';
import path from 'node:path';
import { PMTiles, type Source } from 'pmtiles';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CircleSymbolizer,
  GeomType,
  LineLabelSymbolizer,
  LineSymbolizer,
  paint,
  PolygonSymbolizer,
  TileCache,
  View,
  type Feature,
  type JsonObject,
  type TileSource,
  type Zxy,
} from 'protomaps-leaflet';
import { escolherEstilo, estiloDoPacote, nomeDoRotulo, SABOR, temaDaCamada } from '../src/map/vector/estilo';
import { blocoAusente, FontePacote, type Bloco } from '../src/map/vector/fonte';

function feature(geomType: GeomType, props: JsonObject = {}): Feature {
  return { props, geomType, geom: [], numVertices: 0, bbox: { minX: 0, minY: 0, maxX: 0, maxY: 0 } };
}

/** The paint rules that would draw `f` of `camada` at zoom `z`. */
function regrasQueDesenham(camadas: string[], camada: string, f: Feature, z = 17) {
  return estiloDoPacote(camadas).paintRules.filter(
    (regra) =>
      regra.dataLayer === camada &&
      (regra.minzoom === undefined || z >= regra.minzoom) &&
      (regra.filter === undefined || regra.filter(z, f)),
  );
}

describe('the style a package gets', () => {
  it('a Protomaps extract: the Protomaps style, over the land colour where it has no earth layer', () => {
    expect(escolherEstilo(['earth', 'water', 'roads', 'buildings', 'places'])).toEqual({
      esquema: 'protomaps',
      outras: [],
      fundo: SABOR.background,
    });
    expect(escolherEstilo(['roads', 'buildings'])).toEqual({
      esquema: 'protomaps',
      outras: [],
      fundo: SABOR.earth,
    });
    // an archive that does not list its layers is taken for a Protomaps one
    expect(escolherEstilo([]).esquema).toBe('protomaps');
  });

  it('draws the Protomaps layers: roads, water, buildings', () => {
    const camadas = ['earth', 'water', 'roads', 'buildings'];
    expect(
      regrasQueDesenham(camadas, 'roads', feature(GeomType.Line, { kind: 'minor_road' })),
    ).not.toHaveLength(0);
    expect(regrasQueDesenham(camadas, 'water', feature(GeomType.Polygon, { kind: 'lake' }))).not.toHaveLength(
      0,
    );
    expect(regrasQueDesenham(camadas, 'buildings', feature(GeomType.Polygon))).not.toHaveLength(0);
  });

  it('another schema (OpenMapTiles): every layer drawn by geometry, roads over buildings over water', () => {
    const camadas = ['transportation', 'building', 'water', 'park', 'poi'];
    const escolhido = escolherEstilo(camadas);
    expect(escolhido).toEqual({ esquema: 'generico', outras: camadas, fundo: SABOR.earth });
    const estilo = estiloDoPacote(camadas);
    expect(new Set(estilo.paintRules.map((regra) => regra.dataLayer))).toEqual(new Set(camadas));
    expect(estilo.backgroundColor).toBe(SABOR.earth);

    const [rua] = regrasQueDesenham(camadas, 'transportation', feature(GeomType.Line));
    expect(rua?.symbolizer).toBeInstanceOf(LineSymbolizer);
    const [predio] = regrasQueDesenham(camadas, 'building', feature(GeomType.Polygon));
    expect(predio?.symbolizer).toBeInstanceOf(PolygonSymbolizer);
    const [ponto] = regrasQueDesenham(camadas, 'poi', feature(GeomType.Point));
    expect(ponto?.symbolizer).toBeInstanceOf(CircleSymbolizer);
    // a polygon rule never strokes a line, nor a line rule fills a polygon
    expect(
      regrasQueDesenham(camadas, 'building', feature(GeomType.Line)).map((r) => r.symbolizer),
    ).not.toContainEqual(expect.any(PolygonSymbolizer));

    const ordem = (camada: string, tipo: GeomType) =>
      estilo.paintRules.findIndex((regra) => regra.dataLayer === camada && regra.filter?.(17, feature(tipo)));
    expect(ordem('water', GeomType.Polygon)).toBeLessThan(ordem('building', GeomType.Polygon));
    expect(ordem('building', GeomType.Polygon)).toBeLessThan(ordem('transportation', GeomType.Line));
  });

  it('a Protomaps extract with layers of its own: those drawn too, over the land and buildings, under the roads', () => {
    const estilo = estiloDoPacote(['earth', 'buildings', 'roads', 'postes_da_rede']);
    const camadas = estilo.paintRules.map((regra) => regra.dataLayer);
    const postes = camadas.indexOf('postes_da_rede');
    expect(postes).toBeGreaterThan(camadas.indexOf('earth'));
    expect(postes).toBeGreaterThan(camadas.lastIndexOf('buildings'));
    expect(postes).toBeLessThan(camadas.lastIndexOf('roads'));
  });

  it('guesses a layer of an unknown schema by its name, in English or Portuguese', () => {
    expect(temaDaCamada('waterway')).toBe('agua');
    expect(temaDaCamada('hidrografia')).toBe('agua');
    expect(temaDaCamada('edificacoes')).toBe('edificio');
    expect(temaDaCamada('transportation')).toBe('via');
    expect(temaDaCamada('logradouros')).toBe('via');
    expect(temaDaCamada('landcover')).toBe('verde');
    expect(temaDaCamada('postes')).toBe('outro');
  });
});

describe('names in Portuguese where the data has them', () => {
  it('a street label reads name:pt before name', () => {
    const rua = feature(GeomType.Line, {
      kind: 'major_road',
      name: 'Seventh of September Avenue',
      'name:pt': 'Avenida Sete de Setembro',
    });
    const rotulos = estiloDoPacote(['earth', 'roads']).labelRules.filter(
      (regra) => regra.dataLayer === 'roads' && (regra.filter?.(17, rua) ?? true),
    );
    expect(rotulos).not.toHaveLength(0);
    for (const regra of rotulos) {
      expect(regra.symbolizer).toBeInstanceOf(LineLabelSymbolizer);
      if (regra.symbolizer instanceof LineLabelSymbolizer) {
        expect(regra.symbolizer.text.get(17, rua)).toBe('Avenida Sete de Setembro');
      }
    }
    // without a Portuguese name, the local one
    const flores = feature(GeomType.Line, { kind: 'major_road', name: 'Rua das Flores' });
    const [regra] = rotulos;
    if (regra?.symbolizer instanceof LineLabelSymbolizer)
      expect(regra.symbolizer.text.get(17, flores)).toBe('Rua das Flores');
  });

  it('nomeDoRotulo: name:pt, then name_pt (OpenMapTiles), then name', () => {
    expect(nomeDoRotulo({ name: 'Lake Blue', 'name:pt': 'Lago Azul' })).toBe('Lago Azul');
    expect(nomeDoRotulo({ name: 'Lake Blue', name_pt: 'Lago Azul' })).toBe('Lago Azul');
    expect(nomeDoRotulo({ name: 'Rua Ipê Amarelo' })).toBe('Rua Ipê Amarelo');
    expect(nomeDoRotulo({ kind: 'building' })).toBeUndefined();
  });
});

describe('the package as a tile source', () => {
  const vazio: Bloco = new Map();
  const cheio: Bloco = new Map([['roads', [feature(GeomType.Line)]]]);

  function fonte(get: (c: Zxy) => Promise<Bloco>, minZoom = 12) {
    const pedidos: Zxy[] = [];
    const inner: TileSource = {
      get: (c) => {
        pedidos.push(c);
        return get(c);
      },
    };
    return { fonte: new FontePacote('/api/projeto/p/mapa-base/{z}/{x}/{y}?v=1', minZoom, inner), pedidos };
  }

  it('asks for nothing below the package’s first zoom', async () => {
    const { fonte: f, pedidos } = fonte(async () => cheio);
    expect(await f.get({ z: 11, x: 0, y: 0 }, 512)).toEqual(vazio);
    expect(pedidos).toEqual([]);
    expect(await f.get({ z: 12, x: 1, y: 2 }, 512)).toBe(cheio);
    expect(pedidos).toEqual([{ z: 12, x: 1, y: 2 }]);
  });

  it('a tile outside the package (a 404 whose JSON body is no vector tile) is empty land', async () => {
    const { fonte: f } = fonte(async () => {
      throw new Error('Unimplemented type: 3');
    });
    expect(await f.get({ z: 14, x: 0, y: 0 }, 512)).toEqual(vazio);
  });

  it('a fetch that failed (offline, not downloaded) or was called off is asked again: not kept as empty', async () => {
    const offline = fonte(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(offline.fonte.get({ z: 14, x: 0, y: 0 }, 512)).rejects.toThrow(TypeError);
    const abortada = fonte(async () => {
      throw new DOMException('The user aborted a request.', 'AbortError');
    });
    await expect(abortada.fonte.get({ z: 14, x: 0, y: 0 }, 512)).rejects.toThrow('aborted');
    expect(blocoAusente(new DOMException('x', 'AbortError'))).toBe(false);
    expect(blocoAusente(new Error('unknown command 5'))).toBe(true);
  });
});

/** A 2D context that only records the fills it is asked for, with their colour. */
function contextoQueAnota(): { ctx: CanvasRenderingContext2D; preenchimentos: string[] } {
  const preenchimentos: string[] = [];
  const estado: Record<string | symbol, unknown> = {};
  const ctx = new Proxy(estado, {
    get: (alvo, nome) => {
      if (nome === 'fill') return () => preenchimentos.push(String(alvo.fillStyle));
      return nome in alvo ? alvo[nome] : () => undefined;
    },
    set: (alvo, nome, valor) => {
      alvo[nome] = valor;
      return true;
    },
  });
  // a recorder stands in for the canvas: paint only calls methods and sets styles on it
  return { ctx: ctx as unknown as CanvasRenderingContext2D, preenchimentos };
}

describe('the real vector fixture (tippecanoe, a layer of its own schema)', () => {
  const arquivo = fs.readFileSync(
    path.resolve(import.meta.dirname, '../../../shared/realworld/pmtiles/vector-fixture-1.pmtiles'),
  );
  const fonteDoArquivo: Source = {
    getKey: () => 'vector-fixture-1',
    getBytes: async (offset, length) => ({
      data: arquivo.buffer.slice(arquivo.byteOffset + offset, arquivo.byteOffset + offset + length),
    }),
  };

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('is drawn by the plain style: its polygon filled, through the same source the map reads', async () => {
    const pmtiles = new PMTiles(fonteDoArquivo);
    const metadata = (await pmtiles.getMetadata()) as { vector_layers: { id: string }[] };
    const camadas = metadata.vector_layers.map((camada) => camada.id);
    expect(camadas).toEqual(['test_fixture_1pmtiles']);
    expect(escolherEstilo(camadas).esquema).toBe('generico');

    // the server answers the archive's tiles decompressed, 404 elsewhere, as /api/projeto/{id}/mapa-base does
    vi.stubGlobal('fetch', async (url: string) => {
      const [z = 0, x = 0, y = 0] = /\/(\d+)\/(\d+)\/(\d+)$/.exec(url)?.slice(1).map(Number) ?? [];
      const tile = await pmtiles.getZxy(z, x, y);
      return tile
        ? new Response(tile.data)
        : new Response(JSON.stringify({ message: 'O mapa offline não tem bloco nesse zoom e posição.' }), {
            status: 404,
          });
    });
    const view = new View(
      new TileCache(new FontePacote('/api/projeto/p/mapa-base/{z}/{x}/{y}', 0), 512),
      0,
      1,
    );
    // zoom 1's north-east tile holds the fixture's square (0..1° E, 0..1° N), from the package's zoom 0
    const preparado = await view.getDisplayTile({ z: 1, x: 1, y: 0 });
    expect(preparado.data.get('test_fixture_1pmtiles')).toHaveLength(1);

    const estilo = estiloDoPacote(camadas);
    const { ctx, preenchimentos } = contextoQueAnota();
    const origem = preparado.origin.clone();
    origem.x = 256;
    origem.y = 0;
    const bbox = { minX: 240, minY: -16, maxX: 528, maxY: 272 };
    paint(ctx, 1, new Map([['', [preparado]]]), null, estilo.paintRules, bbox, origem, false);
    expect(preenchimentos).toEqual([expect.any(String)]);

    // a tile the archive has not (its 404 with a JSON body, through protomaps' own URL source) is empty land
    const fonte = new FontePacote('/api/projeto/p/mapa-base/{z}/{x}/{y}', 0);
    expect(await fonte.get({ z: 1, x: 0, y: 1 }, 512)).toEqual(new Map());
  });
});
