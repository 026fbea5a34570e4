// The collection map (SPEC.md section 2 'Map widget', section 9): device position with its accuracy circle,
// red zones, coloured points (clustered when zoomed out, see point-clusters.ts); a tap chooses the point.
// Shapes carry class names so tests can find them.
import { useEffect, useRef } from 'react';
import { Box } from '@mui/material';
import {
  Circle,
  CircleMarker,
  LayersControl,
  MapContainer,
  Pane,
  Polygon,
  TileLayer,
  useMap,
  useMapEvents,
} from 'react-leaflet';
import type { Map as LeafletMap } from 'leaflet';
import 'leaflet/dist/leaflet.css';
import type { MapaBase } from '@novus/domain/api/mapa-base';
import type { TileConfig } from '@novus/domain/api/sistema';
import type { LocalZona } from '../../offline/db';
import { FieldPoints } from './FieldPoints';
import type { GeoFix } from './geolocation';
import { MapaBaseLayer } from './MapaBaseLayer';
import type { MapPoint } from './types';

export const MAP_DEFAULTS = {
  center: [-15.7939, -47.8828] as [number, number],
  zoom: 19,
  maxZoom: 20,
  /** tiles are downloaded at 19; above it Leaflet scales them */
  maxNativeZoom: 19,
  minZoom: 4,
  height: 400,
} as const;

export interface LatLng {
  lat: number;
  lng: number;
}

/** The base layer offered for a project's basemap package, and the default one offline. */
export const MAPA_DO_PROJETO = 'Mapa do projeto';

interface Props {
  /** undefined while a first visit waits for the server's templates. */
  tiles: TileConfig | null | undefined;
  /** The project's basemap package (issue 23), or null when it has none. */
  mapaBase?: { projeto: string; mapa: MapaBase } | null;
  zonas: readonly LocalZona[];
  points: readonly MapPoint[];
  position: GeoFix | null;
  picked: LatLng | null;
  /** Centres the map here, at the current zoom, each time a new object is given ('Próximo ponto'). */
  focus?: LatLng | null;
  onPick?: (point: LatLng) => void;
  onPointClick?: (id: string) => void;
}

/**
 * Where the map opens before the first GPS fix: the middle of the project's first zone, where its points are, so they
 * are drawn at once (a phone's first fix may take seconds); without zones, SPEC.md's default centre.
 */
export function openingCentre(zonas: readonly LocalZona[]): [number, number] {
  const poligono = zonas.find((zona) => (zona.poligono?.length ?? 0) > 0)?.poligono;
  if (!poligono) return MAP_DEFAULTS.center;
  const lats = poligono.map(({ lat }) => lat);
  const lngs = poligono.map(({ lng }) => lng);
  return [(Math.min(...lats) + Math.max(...lats)) / 2, (Math.min(...lngs) + Math.max(...lngs)) / 2];
}

export function FieldMap({
  tiles,
  mapaBase = null,
  zonas,
  points,
  position,
  picked,
  focus = null,
  onPick,
  onPointClick,
}: Props) {
  const offline = typeof navigator !== 'undefined' && !navigator.onLine;
  const separateDownload = tiles?.download && tiles.download !== tiles.street ? tiles.download : null;
  // Offline the project's own map is the one downloaded for it; online the street map stays first. A base layer is
  // chosen when the control mounts, so online it waits for the server's templates (a first visit has none).
  const packageFirst = mapaBase !== null && (offline || !tiles);
  const layersKnown = tiles !== undefined || offline || mapaBase === null;
  return (
    <Box
      role="region"
      aria-label="Mapa"
      sx={{
        height: MAP_DEFAULTS.height,
        width: '100%',
        borderRadius: 1,
        overflow: 'hidden',
        border: 1,
        borderColor: 'grey.400',
        '& .leaflet-control-attribution a': { textDecoration: 'underline' },
        '& .leaflet-control-zoom a': { width: 44, height: 44, lineHeight: '44px', fontSize: 22 },
        '& .leaflet-control-layers-toggle': { width: 44, height: 44 },
        '& .mapa-cluster span': {
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          width: '100%',
          height: '100%',
          borderRadius: '50%',
          border: '3px solid #ffffff',
          boxSizing: 'border-box',
          boxShadow: '0 1px 4px rgba(0, 0, 0, 0.5)',
          color: '#ffffff',
          fontWeight: 700,
          fontSize: 15,
        },
      }}
    >
      <MapContainer
        center={picked ? [picked.lat, picked.lng] : position ? [position.lat, position.lng] : openingCentre(zonas)}
        zoom={MAP_DEFAULTS.zoom}
        maxZoom={MAP_DEFAULTS.maxZoom}
        minZoom={MAP_DEFAULTS.minZoom}
        style={{ height: '100%', width: '100%' }}
      >
        {layersKnown && (tiles || mapaBase) && (
          <LayersControl position="topright">
            {mapaBase && (
              <LayersControl.BaseLayer checked={packageFirst} name={MAPA_DO_PROJETO}>
                <MapaBaseLayer
                  projeto={mapaBase.projeto}
                  mapa={mapaBase.mapa}
                  maxZoom={MAP_DEFAULTS.maxZoom}
                />
              </LayersControl.BaseLayer>
            )}
            {tiles && separateDownload && (
              <LayersControl.BaseLayer checked={offline && !packageFirst} name="Mapa baixado">
                <TileLayer
                  url={separateDownload}
                  maxZoom={MAP_DEFAULTS.maxZoom}
                  maxNativeZoom={MAP_DEFAULTS.maxNativeZoom}
                />
              </LayersControl.BaseLayer>
            )}
            {tiles && (
              <LayersControl.BaseLayer checked={!packageFirst && !(offline && separateDownload)} name="Ruas">
                <TileLayer
                  url={tiles.street}
                  attribution="&copy; colaboradores do OpenStreetMap"
                  maxZoom={MAP_DEFAULTS.maxZoom}
                  maxNativeZoom={MAP_DEFAULTS.maxNativeZoom}
                />
              </LayersControl.BaseLayer>
            )}
            {tiles && (
              <LayersControl.BaseLayer name="Satélite">
                <TileLayer
                  url={tiles.satellite}
                  maxZoom={MAP_DEFAULTS.maxZoom}
                  maxNativeZoom={MAP_DEFAULTS.maxNativeZoom}
                />
              </LayersControl.BaseLayer>
            )}
          </LayersControl>
        )}
        {zonas.map((zona) =>
          zona.poligono && zona.poligono.length > 0 ? (
            <Polygon
              key={zona._id}
              positions={zona.poligono.map(({ lat, lng }) => [lat, lng] as [number, number])}
              pathOptions={{ color: 'red', fill: false }}
              className="mapa-zona"
              interactive={false}
            />
          ) : null,
        )}
        <FieldPoints points={points} onPointClick={onPointClick} />
        {/* Above the points (a canvas when there are many), and let taps through to them and to the map. */}
        <Pane name="mapa-referencia" style={{ zIndex: 450, pointerEvents: 'none' }}>
          {position && (
            <>
              <Circle
                center={[position.lat, position.lng]}
                radius={position.accuracy}
                pathOptions={{ color: '#0d47a1', weight: 1, fillOpacity: 0.1 }}
                className="mapa-precisao"
                interactive={false}
              />
              <CircleMarker
                center={[position.lat, position.lng]}
                radius={7}
                pathOptions={{ color: '#ffffff', weight: 3, fillColor: '#0d47a1', fillOpacity: 1 }}
                className="mapa-posicao"
                interactive={false}
              />
            </>
          )}
          {picked && (
            <CircleMarker
              center={[picked.lat, picked.lng]}
              radius={12}
              pathOptions={{ color: '#000000', weight: 3, fillColor: '#ffeb3b', fillOpacity: 1 }}
              className="mapa-ponto-escolhido"
              interactive={false}
            />
          )}
        </Pane>
        <FollowFirstFix position={position} picked={picked} />
        <CentreOn focus={focus} />
        <EndZoomWithMap />
        {onPick && <PickOnTap onPick={onPick} />}
      </MapContainer>
    </Box>
  );
}

function PickOnTap({ onPick }: { onPick: (point: LatLng) => void }) {
  useMapEvents({ click: (event) => onPick({ lat: event.latlng.lat, lng: event.latlng.lng }) });
  return null;
}

function CentreOn({ focus }: { focus: LatLng | null }) {
  const map = useMap();
  useEffect(() => {
    if (focus) map.setView([focus.lat, focus.lng], map.getZoom());
  }, [map, focus]);
  return null;
}

/** Centres on the chosen point, or else on the first GPS fix; afterwards the technician pans freely. */
function FollowFirstFix({ position, picked }: { position: GeoFix | null; picked: LatLng | null }) {
  const map = useMap();
  const centred = useRef(false);
  useEffect(() => {
    if (centred.current) return;
    const target = picked ?? position;
    if (!target) return;
    centred.current = true;
    map.setView([target.lat, target.lng], MAP_DEFAULTS.zoom);
  }, [map, position, picked]);
  return null;
}

/** Leaflet's flag for a zoom animation under way, which its types leave out. */
interface ZoomingMap extends LeafletMap {
  _animatingZoom?: boolean;
}

/**
 * Leaflet 1.9 ends a zoom animation on a 250 ms timer that map.remove() leaves running (Leaflet issue 9575, fixed
 * after 1.9.4): a step that changes mid-zoom ('Gravar Coordenadas' as the map zooms to the first fix, or right after
 * a tap on + or −) had the timer move a removed map, an uncaught "_leaflet_pos of undefined". With the map gone its
 * zoom is over, so the timer finds nothing to do. map.stop() cannot help: remove() calls it, and it ends pans and flyTo only.
 */
function EndZoomWithMap() {
  const map = useMap();
  useEffect(() => {
    const zooming: ZoomingMap = map;
    // React runs this with react-leaflet's map.remove(), before or after it but in the same task, so the timer
    // (a later task) always finds the flag down, and an animation frame still to start it finds no map.
    return () => {
      zooming._animatingZoom = false;
    };
  }, [map]);
  return null;
}
