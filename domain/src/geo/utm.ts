// UTM on SIRGAS 2000 (GRS80, EPSG 31978–31985 for zones 18S–25S), by proj4: no hand-written geodesy.
import proj4 from 'proj4';
import type { LatLng } from './kml.ts';

export { FUSOS, type Fuso, isFuso } from './fusos.ts';

function definition(zone: number, south: boolean): string {
  return `+proj=utm +zone=${zone}${south ? ' +south' : ''} +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs`;
}

export interface Utm {
  x: number;
  y: number;
}

export function utmToLatLng({ x, y }: Utm, zone: number, south = true): LatLng {
  const [lng, lat] = proj4(definition(zone, south), 'WGS84', [x, y]);
  if (lng === undefined || lat === undefined) throw new Error('proj4 returned no coordinates');
  return { lat, lng };
}

export function latLngToUtm({ lat, lng }: LatLng, zone: number, south = true): Utm {
  const [x, y] = proj4('WGS84', definition(zone, south), [lng, lat]);
  if (x === undefined || y === undefined) throw new Error('proj4 returned no coordinates');
  return { x, y };
}
