// The project's basemap package as a Leaflet base layer (issue 23): a raster archive's tiles overzoomed past its
// last zoom (a zoom-15 or even a zoom-3 package still draws at 19 and 20), a vector one drawn by the street style,
// whose code loads only here (React.lazy), never with the first page.
import { Suspense, useEffect, useState } from 'react';
import { latLngBounds, type LayerGroup as LeafletLayerGroup } from 'leaflet';
import { LayerGroup } from 'react-leaflet';
import type { MapaBase } from '@novus/domain/api/mapa-base';
import { mapaBaseTileTemplate } from '@novus/domain/mapa/base';
import { VectorBasemap } from '../vector';
import { atribuicaoSegura } from '../vector/atribuicao';
import { OverzoomTileLayer } from './overzoom';

/** The class of the raster layer's container: tests find its tiles by it. */
export const MAPA_BASE_CLASS = 'mapa-base';

export function MapaBaseLayer({
  projeto,
  mapa,
  maxZoom,
}: {
  projeto: string;
  mapa: MapaBase;
  maxZoom: number;
}) {
  const url = mapaBaseTileTemplate(projeto, mapa);
  if (mapa.vetorial) {
    return (
      <Suspense fallback={null}>
        <VectorBasemap
          url={url}
          minNativeZoom={mapa.minZoom}
          maxNativeZoom={mapa.maxZoom}
          camadas={mapa.camadas}
          attribution={mapa.atribuicao}
        />
      </Suspense>
    );
  }
  return <RasterPackage url={url} mapa={mapa} maxZoom={maxZoom} />;
}

function RasterPackage({ url, mapa, maxZoom }: { url: string; mapa: MapaBase; maxZoom: number }) {
  const [grupo, setGrupo] = useState<LeafletLayerGroup | null>(null);
  const { minZoom, maxZoom: nativeMaxZoom, atribuicao } = mapa;
  const { sul, oeste, norte, leste } = mapa.limites;

  useEffect(() => {
    if (grupo === null) return;
    const layer = new OverzoomTileLayer(url, {
      className: MAPA_BASE_CLASS,
      nativeMaxZoom,
      minNativeZoom: minZoom,
      maxZoom,
      // outside the archive there is nothing to ask for (the server would answer 404)
      bounds: latLngBounds([sul, oeste], [norte, leste]),
      attribution: atribuicaoSegura(atribuicao),
    });
    grupo.addLayer(layer);
    return () => {
      grupo.removeLayer(layer);
    };
  }, [grupo, url, minZoom, nativeMaxZoom, maxZoom, sul, oeste, norte, leste, atribuicao]);

  // A group, so the layer goes wherever react-leaflet puts it: in the map's LayersControl.BaseLayer.
  return <LayerGroup ref={setGrupo} />;
}
