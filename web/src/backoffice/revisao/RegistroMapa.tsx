// The reviewed record's point on a small Leaflet map, over the configured street tiles.
import { useEffect } from 'react';
import { Box } from '@mui/material';
import { CircleMarker, MapContainer, TileLayer, useMap } from 'react-leaflet';
import 'leaflet/dist/leaflet.css';

const ZOOM = 17;
const OSM_ATTRIBUTION = '&copy; colaboradores do OpenStreetMap';

interface Props {
  lat: number;
  lng: number;
  color: string;
  tileUrl: string | undefined;
}

export function RegistroMapa({ lat, lng, color, tileUrl }: Props) {
  return (
    <Box
      role="region"
      aria-label="Mapa do registro"
      data-testid="revisao-mapa"
      sx={{ height: 220, width: '100%', '& .leaflet-control-attribution a': { textDecoration: 'underline' } }}
    >
      <MapContainer
        center={[lat, lng]}
        zoom={ZOOM}
        style={{ height: '100%', width: '100%' }}
        scrollWheelZoom={false}
      >
        {tileUrl !== undefined && <TileLayer url={tileUrl} maxZoom={19} attribution={OSM_ATTRIBUTION} />}
        <CircleMarker
          center={[lat, lng]}
          radius={8}
          // a creation option (setStyle ignores it): tests find the point by it
          className="revisao-ponto"
          pathOptions={{ color: '#ffffff', weight: 2, fillColor: color, fillOpacity: 1 }}
        />
        <Recenter lat={lat} lng={lng} />
      </MapContainer>
    </Box>
  );
}

/** Another record shown in the same map: the view moves to it. */
function Recenter({ lat, lng }: { lat: number; lng: number }) {
  const map = useMap();
  useEffect(() => {
    map.setView([lat, lng], map.getZoom(), { animate: false });
  }, [map, lat, lng]);
  return null;
}
