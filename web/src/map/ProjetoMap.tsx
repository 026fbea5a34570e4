// A project's zones and preloaded points on a Leaflet map: zones red, IP green, BDGD red, fiscalização blue
// (SPEC.md section 2, 'Project form'). Each layer has a class name so tests can count the shapes.
import { useEffect, useMemo } from 'react';
import { Box } from '@mui/material';
import { CircleMarker, MapContainer, Polygon, TileLayer, useMap } from 'react-leaflet';
import 'leaflet/dist/leaflet.css';
import { boundsOf, BRAZIL, type Bounds } from './bounds';
import type { MapPontos, MapZona } from './types';

export const MAP_LAYER_STYLE = {
  zona: { color: 'red', className: 'mapa-zona' },
  ip: { color: 'green', className: 'mapa-ponto-ip' },
  bdgd: { color: 'red', className: 'mapa-ponto-bdgd' },
  fiscalizacao: { color: 'blue', className: 'mapa-ponto-fiscalizacao' },
} as const;

const POINT_LAYERS = ['ip', 'bdgd', 'fiscalizacao'] as const;

interface Props {
  /** Tile URL template with {z}/{x}/{y}; without it the map shows only the shapes. */
  tileUrl: string | undefined;
  zonas: MapZona[];
  pontos: MapPontos;
  height?: number | string;
}

export function ProjetoMap({ tileUrl, zonas, pontos, height = 480 }: Props) {
  const bounds = useMemo(
    () =>
      boundsOf([...zonas.flatMap((zona) => zona.anel), ...pontos.ip, ...pontos.bdgd, ...pontos.fiscalizacao]),
    [zonas, pontos],
  );
  return (
    <Box
      role="region"
      aria-label="Mapa do projeto"
      // Leaflet's attribution links are told apart by colour only (axe: link-in-text-block).
      sx={{ height, width: '100%', '& .leaflet-control-attribution a': { textDecoration: 'underline' } }}
    >
      <MapContainer bounds={BRAZIL} style={{ height: '100%', width: '100%' }} scrollWheelZoom>
        {tileUrl !== undefined && (
          <TileLayer url={tileUrl} attribution="&copy; colaboradores do OpenStreetMap" />
        )}
        {zonas.map((zona) => (
          <Polygon
            key={zona.key}
            positions={zona.anel}
            pathOptions={{ color: MAP_LAYER_STYLE.zona.color }}
            // Leaflet reads className only when it creates the path, never from pathOptions updates.
            className={MAP_LAYER_STYLE.zona.className}
          />
        ))}
        {POINT_LAYERS.flatMap((layer) =>
          pontos[layer].map((center, index) => (
            <CircleMarker
              key={`${layer}-${index}`}
              center={center}
              radius={6}
              pathOptions={{ color: MAP_LAYER_STYLE[layer].color }}
              className={MAP_LAYER_STYLE[layer].className}
            />
          )),
        )}
        <FitBounds bounds={bounds} />
      </MapContainer>
    </Box>
  );
}

/** Refits whenever the data changes (a new file picked, a project loaded). */
function FitBounds({ bounds }: { bounds: Bounds }) {
  const map = useMap();
  const [[south, west], [north, east]] = bounds;
  useEffect(() => {
    map.fitBounds(
      [
        [south, west],
        [north, east],
      ],
      { padding: [16, 16], maxZoom: 17 },
    );
  }, [map, south, west, north, east]);
  return null;
}
