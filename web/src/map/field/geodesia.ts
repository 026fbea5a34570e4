// Distance and direction between two positions on the sphere, as the technician reads them on the map step:
// metres or kilometres in Brazilian notation, and a compass word from true north (the map's north, not the phone's).
import type { LatLng } from '@novus/domain/geo/kml';

/** The Earth's mean radius in metres (IUGG), the one @turf/distance uses too. */
export const RAIO_TERRA = 6_371_008.8;

const rad = (graus: number) => (graus * Math.PI) / 180;

/** Great-circle distance in metres (haversine): under 0.5 % off the ellipsoid, plenty for walking to a pole. */
export function distanciaMetros(de: LatLng, para: LatLng): number {
  const dLat = rad(para.lat - de.lat);
  const dLng = rad(para.lng - de.lng);
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(rad(de.lat)) * Math.cos(rad(para.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * RAIO_TERRA * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Initial bearing from `de` to `para`, in degrees clockwise from true north, in [0, 360). */
export function rumoGraus(de: LatLng, para: LatLng): number {
  const dLng = rad(para.lng - de.lng);
  const y = Math.sin(dLng) * Math.cos(rad(para.lat));
  const x =
    Math.cos(rad(de.lat)) * Math.sin(rad(para.lat)) -
    Math.sin(rad(de.lat)) * Math.cos(rad(para.lat)) * Math.cos(dLng);
  const graus = (Math.atan2(y, x) * 180) / Math.PI;
  return (graus + 360) % 360;
}

export const DIRECOES = [
  'norte',
  'nordeste',
  'leste',
  'sudeste',
  'sul',
  'sudoeste',
  'oeste',
  'noroeste',
] as const;
export type Direcao = (typeof DIRECOES)[number];

/** The nearest of the eight compass words: 'norte' covers 337.5°–22.5°, 'nordeste' 22.5°–67.5°, and so on. */
export function direcaoDe(graus: number): Direcao {
  const setor = Math.round((((graus % 360) + 360) % 360) / 45) % 8;
  return DIRECOES[setor] ?? 'norte';
}

const KM = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 });

/** '35 m', '1,2 km', '12,5 km': whole metres below a kilometre, then kilometres with one decimal at most. */
export function formatDistancia(metros: number): string {
  const inteiros = Math.round(metros);
  if (inteiros < 1000) return `${inteiros} m`;
  return `${KM.format(metros / 1000)} km`;
}
