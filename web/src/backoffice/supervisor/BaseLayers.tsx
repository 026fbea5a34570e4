// The supervisor map's base layers: the configured street tiles, and the project's own basemap package when it has
// one (issue 23), offered as 'Mapa do projeto' and shown first. A vector package loads its renderer only here.
import { Suspense } from 'react';
import { LayersControl, TileLayer } from 'react-leaflet';
import { mapaBaseTileTemplate, type MapaBase } from '@novus/domain/api/mapa-base';
import { atribuicaoSegura } from '../../map/vector/atribuicao';
import { VectorBasemap } from '../../map/vector';
import { SUPERVISOR_TEXT } from './messages';

const OSM_ATTRIBUTION = '&copy; colaboradores do OpenStreetMap';

interface Props {
  projetoId: string;
  tileUrl: string | undefined;
  mapaBase: MapaBase | null;
  maxZoom: number;
}

export function BaseLayers({ projetoId, tileUrl, mapaBase, maxZoom }: Props) {
  const ruas = tileUrl !== undefined && (
    <TileLayer url={tileUrl} maxZoom={maxZoom} attribution={OSM_ATTRIBUTION} />
  );
  if (mapaBase === null) return ruas;
  return (
    <LayersControl position="topright">
      {ruas && <LayersControl.BaseLayer name={SUPERVISOR_TEXT.ruas}>{ruas}</LayersControl.BaseLayer>}
      <LayersControl.BaseLayer checked name={SUPERVISOR_TEXT.mapaDoProjeto}>
        <MapaDoProjeto projetoId={projetoId} mapaBase={mapaBase} maxZoom={maxZoom} />
      </LayersControl.BaseLayer>
    </LayersControl>
  );
}

/** The package's tiles: a vector package drawn with the street style, a raster one overzoomed past its last zoom. */
function MapaDoProjeto({
  projetoId,
  mapaBase,
  maxZoom,
}: {
  projetoId: string;
  mapaBase: MapaBase;
  maxZoom: number;
}) {
  const url = mapaBaseTileTemplate(projetoId, mapaBase);
  if (mapaBase.vetorial) {
    return (
      <Suspense fallback={null}>
        <VectorBasemap
          url={url}
          minNativeZoom={mapaBase.minZoom}
          maxNativeZoom={mapaBase.maxZoom}
          camadas={mapaBase.camadas}
          attribution={mapaBase.atribuicao}
        />
      </Suspense>
    );
  }
  return (
    <TileLayer
      url={url}
      minNativeZoom={mapaBase.minZoom}
      maxNativeZoom={mapaBase.maxZoom}
      maxZoom={maxZoom}
      attribution={atribuicaoSegura(mapaBase.atribuicao)}
    />
  );
}
