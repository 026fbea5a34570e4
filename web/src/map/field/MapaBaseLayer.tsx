// The project's basemap package as a Leaflet base layer (issue 23): a raster archive's tiles overzoomed past its
// last zoom (a zoom-15 or even a zoom-3 package still draws at 19 and 20), a vector one drawn by the street style,
// whose code loads only here (React.lazy), never with the first page.
import { Suspense } from 'react';
import { TileLayer } from 'react-leaflet';
import { type MapaBase, mapaBaseTileTemplate } from '@novus/domain/api/mapa-base';
import { VectorBasemap } from '../vector';
import { atribuicaoSegura } from '../vector/atribuicao';

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
  const { sul, oeste, norte, leste } = mapa.limites;
  return (
    <TileLayer
      url={url}
      className={MAPA_BASE_CLASS}
      minNativeZoom={mapa.minZoom}
      maxNativeZoom={mapa.maxZoom}
      maxZoom={maxZoom}
      // outside the archive there is nothing to ask for (the server would answer 404)
      bounds={[
        [sul, oeste],
        [norte, leste],
      ]}
      attribution={atribuicaoSegura(mapa.atribuicao)}
    />
  );
}
