// The supervisor map's base layers: the configured street tiles, and the project's own basemap package when it has
// one (issue 23), offered as 'Mapa do projeto' and shown first. A vector package loads its renderer only here.
import { LayersControl, TileLayer } from 'react-leaflet';
import type { MapaBase } from '@novus/domain/api/mapa-base';
import { MapaBaseLayer } from '../../map/field/MapaBaseLayer';
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
        <MapaBaseLayer projeto={projetoId} mapa={mapaBase} maxZoom={maxZoom} />
      </LayersControl.BaseLayer>
    </LayersControl>
  );
}
