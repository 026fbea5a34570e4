// A project's vector package (MVT tiles from /api/projeto/{id}/mapa-base/{z}/{x}/{y}) drawn as a street map inside
// the Leaflet map, by protomaps-leaflet on Canvas 2D with the Protomaps 'light' colours and Portuguese names.
//
// Why protomaps-leaflet and not MapLibre GL (+ @maplibre/maplibre-gl-leaflet + @protomaps/basemaps' style),
// measured 2026-11-26 (esbuild --minify, gzip -9):
// - weight: this layer's code is 125 KB minified, 37 KB gzip; MapLibre GL 6.17 with the binding and the style is
//   1.1 MB (307 KB gzip) plus its 520 KB worker (147 KB gzip): 12 times as much for a phone to download and parse.
// - offline: MapLibre draws text only from glyph PBFs (and icons from a sprite) fetched by URL; no npm package we can
//   use ships them, so every label would need font files we build and serve. protomaps-leaflet draws labels with the
//   browser's own fonts: nothing to serve, nothing to download, Portuguese accents included.
// - devices: Canvas 2D works everywhere; MapLibre needs WebGL (our e2e Chromium has it only through SwiftShader
//   with --disable-gpu; cheap phones with blocklisted GPUs have none) and a second map inside Leaflet's.
// - names: both read `name:pt` before `name` (lang 'pt'); both overzoom the last zoom (maxDataZoom here).
import { useEffect, useState } from 'react';
import type { GridLayer, LayerGroup as LeafletLayerGroup } from 'leaflet';
import { LayerGroup } from 'react-leaflet';
import { TileCache, View, leafletLayer, type LabelRule } from 'protomaps-leaflet';
import { atribuicaoSegura } from './atribuicao';
import { estiloDoPacote, LINGUA, nomeDoRotulo } from './estilo';
import { FontePacote } from './fonte';
import type { VectorBasemapProps } from './index';

/** Protomaps tiles are made to show at 512 px: Leaflet's zoom z draws the package's z - 1, as its own layers do. */
const LEVEL_DIFF = 1;
/** The class of the layer's container: the e2e finds its canvases by it. */
export const VECTOR_CLASS = 'mapa-vetorial';

export default function VectorBasemapLayer({
  url,
  minNativeZoom,
  maxNativeZoom,
  camadas,
  attribution,
}: VectorBasemapProps) {
  const [grupo, setGrupo] = useState<LeafletLayerGroup | null>(null);
  // By value: a parent that builds the array anew on each render must not rebuild the layer.
  const chave = JSON.stringify(camadas);

  useEffect(() => {
    if (grupo === null) return;
    const camada = criarCamada({
      url,
      minNativeZoom,
      maxNativeZoom,
      camadas: JSON.parse(chave) as string[], // the JSON of a string[] two lines up
      attribution,
    });
    grupo.addLayer(camada);
    return () => {
      grupo.removeLayer(camada);
    };
  }, [grupo, url, minNativeZoom, maxNativeZoom, chave, attribution]);

  // A group, so the layer goes wherever react-leaflet puts the group: on the map, or in a LayersControl.BaseLayer.
  return <LayerGroup ref={setGrupo} />;
}

function criarCamada({
  url,
  minNativeZoom,
  maxNativeZoom,
  camadas,
  attribution,
}: VectorBasemapProps): GridLayer {
  const estilo = estiloDoPacote(camadas);
  const pintados = new Set<string>();
  const layer = leafletLayer({
    url,
    paintRules: estilo.paintRules,
    labelRules: registrarRotulos(estilo.labelRules, pintados),
    backgroundColor: estilo.backgroundColor,
    lang: LINGUA,
    maxDataZoom: maxNativeZoom,
    attribution: atribuicaoSegura(attribution),
    className: VECTOR_CLASS,
  });
  // Its own URL source reads a 404 as a broken tile and logs it; ours draws the package's gaps as empty land.
  layer.views = new Map([
    [
      '',
      new View(
        new TileCache(new FontePacote(url, minNativeZoom), 256 << LEVEL_DIFF),
        maxNativeZoom,
        LEVEL_DIFF,
      ),
    ],
  ]);
  // Which names the layer painted, on its container (data-rotulos): what the e2e reads, since a canvas has no text.
  layer.on('load', () => {
    const container = (layer as unknown as GridLayer).getContainer(); // leafletLayer's class extends L.GridLayer
    if (container) container.dataset.rotulos = JSON.stringify([...pintados].sort());
  });
  return layer as unknown as GridLayer; // leafletLayer's class extends L.GridLayer; its typing only says so loosely
}

/** The same rules, remembering the names they paint. */
function registrarRotulos(regras: LabelRule[], pintados: Set<string>): LabelRule[] {
  return regras.map((regra) => ({
    ...regra,
    symbolizer: {
      place: (layout, geom, feature) => {
        const rotulos = regra.symbolizer.place(layout, geom, feature);
        const nome = nomeDoRotulo(feature.props);
        if (rotulos === undefined || nome === undefined) return rotulos;
        return rotulos.map((rotulo) => ({
          ...rotulo,
          draw: (ctx, extra) => {
            rotulo.draw(ctx, extra);
            pintados.add(nome);
          },
        }));
      },
    },
  }));
}
