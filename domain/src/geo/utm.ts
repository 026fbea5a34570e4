// UTM on SIRGAS 2000 (GRS80, EPSG 31978–31985 for zones 18S–25S), by proj4: no hand-written geodesy.
import proj4 from 'proj4';
import type { LatLng } from './kml.ts';

export const FUSOS = [18, 19, 20, 21, 22, 23, 24, 25] as const;
export type Fuso = (typeof FUSOS)[number];

export function isFuso(value: number): value is Fuso {
  return (FUSOS as readonly number[]).includes(value);
}

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
