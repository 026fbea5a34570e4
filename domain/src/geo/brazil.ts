// Brazil's extent: the default map bounds (SPEC.md section 2) and the sanity check for uploaded coordinates.
export const BRAZIL_BOUNDS = { south: -33.77, north: 5.24, west: -73.99, east: -34.73 } as const;

/** Generous box around Brazil including its oceanic islands (Fernando de Noronha, Trindade), for validation. */
const ACCEPTED = { south: -34.5, north: 5.8, west: -74.5, east: -28.5 } as const;

export function isInBrazil(lat: number, lng: number): boolean {
  return lat >= ACCEPTED.south && lat <= ACCEPTED.north && lng >= ACCEPTED.west && lng <= ACCEPTED.east;
}
