// Whether a point lies in one of the technician's zones: the map step warns when it does not (zones as a
// geofence; the record is still saved and the server assigns the zone that contains it).
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { point, polygon } from '@turf/helpers';
import type { LatLng } from './kml.ts';

export function isInZonas(at: LatLng, zonas: readonly { poligono?: readonly LatLng[] }[]): boolean {
  return zonas.some((zona) => {
    const ring = (zona.poligono ?? []).map(({ lat, lng }) => [lng, lat]);
    if (ring.length < 3) return false;
    const first = ring[0];
    const last = ring[ring.length - 1];
    if (first && last && (first[0] !== last[0] || first[1] !== last[1])) ring.push(first);
    return booleanPointInPolygon(point([at.lng, at.lat]), polygon([ring]));
  });
}
