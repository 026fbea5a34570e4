import { describe, expect, it } from 'vitest';
import { latLngToUtm, utmToLatLng } from '../src/geo/utm.ts';

// Reference values computed with PROJ 9's cs2cs (Debian proj-bin), SIRGAS 2000 / UTM zones, e.g.:
//   printf -- "-25.4284 -49.2733\n" | cs2cs -f "%.3f" EPSG:4326 EPSG:31982
//   printf "673357.215 7185753.510\n" | cs2cs -f "%.7f" EPSG:31982 EPSG:4326
const REFERENCES = [
  { place: 'Curitiba', lat: -25.4284, lng: -49.2733, zone: 22, x: 673648.491, y: 7186491.014 },
  { place: 'Rio de Janeiro', lat: -22.9068, lng: -43.1729, zone: 23, x: 687394.593, y: 7465634.128 },
  { place: 'Brasília', lat: -15.7942, lng: -47.8825, zone: 23, x: 191171.363, y: 8251713.127 },
  { place: 'Brasília (fuso 22)', lat: -15.7942, lng: -47.8825, zone: 22, x: 834026.858, y: 8251353.68 },
  { place: 'Fortaleza', lat: -3.7319, lng: -38.5267, zone: 24, x: 552556.105, y: 9587492.939 },
];

describe('UTM (SIRGAS 2000) against PROJ cs2cs', () => {
  it.each(REFERENCES)('$place: lat/lng -> UTM zone $zone S within 1 cm', ({ lat, lng, zone, x, y }) => {
    const utm = latLngToUtm({ lat, lng }, zone);
    expect(utm.x).toBeCloseTo(x, 2);
    expect(utm.y).toBeCloseTo(y, 2);
  });

  it.each(REFERENCES)(
    '$place: UTM zone $zone S -> lat/lng within 1e-7 degrees',
    ({ lat, lng, zone, x, y }) => {
      const point = utmToLatLng({ x, y }, zone);
      expect(point.lat).toBeCloseTo(lat, 7);
      expect(point.lng).toBeCloseTo(lng, 7);
    },
  );

  it('converts a point given in UTM as cs2cs does', () => {
    const point = utmToLatLng({ x: 673357.215, y: 7185753.51 }, 22);
    expect(point.lat).toBeCloseTo(-25.4350911, 7);
    expect(point.lng).toBeCloseTo(-49.2761006, 7);
  });
});
