// A project's vector package (MVT tiles from /api/projeto/{id}/mapa-base/{z}/{x}/{y}) drawn as a street map inside
// the Leaflet map, by protomaps-leaflet on Canvas 2D with the Protomaps 'light' colours and Portuguese names.
//
// Why protomaps-leaflet and not MapLibre GL (+ @maplibre/maplibre-gl-leaflet + the @protomaps/basemaps style), both
// measured 2026-11-26 on the same MVT tiles in our e2e Chromium (--disable-gpu):
// - weight: this lazy chunk is 130 KB minified, 37 KB gzip (vite build); MapLibre GL 6.17 with the binding and the
//   style is 1.1 MB (307 KB gzip) plus a 520 KB worker (147 KB gzip), 12 times as much, and the service worker
//   precaches every chunk on every phone, with or without a vector package.
// - first frame, 390x400 px at zoom 17: 0.32-0.42 s here, 1.4-1.9 s for MapLibre (3 runs each), which draws on
//   WebGL2 through SwiftShader, the CPU, on this machine as on phones whose GPU Chromium blocklists.
// - offline: both draw labels with the device's fonts (MapLibre >= 5.11 does when the style has no glyphs URL) and
//   read name:pt before name; only the Protomaps style's icons would need a sprite served by us.
// - in Leaflet: this is an L.GridLayer of canvas tiles, zoomed and animated like the raster layers and switched in
//   a LayersControl; MapLibre is a second map kept in step with Leaflet's.
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
  limites,
}: VectorBasemapProps) {
  const [grupo, setGrupo] = useState<LeafletLayerGroup | null>(null);
  // By value: a parent that builds the array anew on each render must not rebuild the layer.
  const chave = JSON.stringify(camadas);
  const { oeste, sul, leste, norte } = limites ?? {};

  useEffect(() => {
    if (grupo === null) return;
    const camada = criarCamada({
      url,
      minNativeZoom,
      maxNativeZoom,
      camadas: JSON.parse(chave) as string[], // the JSON of a string[] a few lines up
      attribution,
      limites:
        oeste === undefined || sul === undefined || leste === undefined || norte === undefined
          ? null
          : { oeste, sul, leste, norte },
    });
    grupo.addLayer(camada);
    return () => {
      grupo.removeLayer(camada);
    };
  }, [grupo, url, minNativeZoom, maxNativeZoom, chave, attribution, oeste, sul, leste, norte]);

  // A group, so the layer goes wherever react-leaflet puts the group: on the map, or in a LayersControl.BaseLayer.
  return <LayerGroup ref={setGrupo} />;
}

function criarCamada({
  url,
  minNativeZoom,
  maxNativeZoom,
  camadas,
  attribution,
  limites,
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
    ...(limites
      ? {
          bounds: [
            [limites.sul, limites.oeste],
            [limites.norte, limites.leste],
          ],
        }
      : {}),
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
