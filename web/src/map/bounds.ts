// What the project map shows first: all its shapes, or Brazil when it has none (SPEC.md section 2).
import { BRAZIL_BOUNDS } from '@novus/domain/geo/brazil';

/** [[south, west], [north, east]], the shape Leaflet's fitBounds takes. */
export type Bounds = [[number, number], [number, number]];

export const BRAZIL: Bounds = [
  [BRAZIL_BOUNDS.south, BRAZIL_BOUNDS.west],
  [BRAZIL_BOUNDS.north, BRAZIL_BOUNDS.east],
];

/** The box around every [lat, lng] given, or Brazil when there are none. */
export function boundsOf(points: Iterable<readonly [number, number]>): Bounds {
  let south = Infinity;
  let west = Infinity;
  let north = -Infinity;
  let east = -Infinity;
  for (const [lat, lng] of points) {
    south = Math.min(south, lat);
    north = Math.max(north, lat);
    west = Math.min(west, lng);
    east = Math.max(east, lng);
  }
  if (!Number.isFinite(south)) return BRAZIL;
  return [
    [south, west],
    [north, east],
  ];
}
