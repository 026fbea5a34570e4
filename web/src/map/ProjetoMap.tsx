// A project's zones and preloaded points on a Leaflet map: zones red, each flow's points in the colour its
// declaration gives them (IP green, BDGD red, fiscalização blue: SPEC.md section 2, 'Project form'). Each layer has a class name so tests can count the shapes.
import { useEffect, useMemo } from 'react';
import { Box } from '@mui/material';
import { CircleMarker, MapContainer, Polygon, TileLayer, useMap } from 'react-leaflet';
import 'leaflet/dist/leaflet.css';
import { PRELOADED_FLOWS } from '@novus/domain/flows/registry';
import { boundsOf, BRAZIL, type Bounds } from './bounds';
import type { MapPontos, MapZona } from './types';

const ZONA = { color: 'red', className: 'mapa-zona' } as const;

/** The flows whose file has positions, each in its declaration's colour (class `mapa-ponto-{fluxo}` for tests). */
const POINT_LAYERS = PRELOADED_FLOWS.flatMap((flow) =>
  flow.preload.formMapColor === null ? [] : [{ fluxo: flow.key, color: flow.preload.formMapColor }],
);

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
      boundsOf([
        ...zonas.flatMap((zona) => zona.anel),
        ...POINT_LAYERS.flatMap(({ fluxo }) => pontos[fluxo] ?? []),
      ]),
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
            pathOptions={{ color: ZONA.color }}
            // Leaflet reads className only when it creates the path, never from pathOptions updates.
            className={ZONA.className}
          />
        ))}
        {POINT_LAYERS.flatMap(({ fluxo, color }) =>
          (pontos[fluxo] ?? []).map((center, index) => (
            <CircleMarker
              key={`${fluxo}-${index}`}
              center={center}
              radius={6}
              pathOptions={{ color }}
              className={`mapa-ponto-${fluxo}`}
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
