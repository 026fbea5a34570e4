// What the device needs of a project's basemap package without the API's schemas (the first page carries no zod):
// its tile kinds and their media types, the default size limit and the tiles' URL template. The endpoints and the
// answer's schema are api/mapa-base.ts.

/** The archive's tile type (PMTiles header byte 99): raster images or Mapbox Vector Tiles. */
export const MAPA_BASE_TIPOS = ['png', 'jpg', 'webp', 'avif', 'mvt'] as const;
export type MapaBaseTipo = (typeof MAPA_BASE_TIPOS)[number];

/** The media type a tile of each kind is served with. */
export const MAPA_BASE_MEDIA: Record<MapaBaseTipo, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  avif: 'image/avif',
  mvt: 'application/vnd.mapbox-vector-tile',
};

/** The largest archive accepted by default, in bytes (MAPA_BASE_MAX_BYTES changes it): 8 GiB. */
export const MAPA_BASE_MAX_BYTES = 8 * 1024 ** 3;

/** The tile URL template of a package: the device caches tiles under these URLs, whole, with the version. */
export function mapaBaseTileTemplate(projeto: string, mapa: { versao: string }): string {
  return `/api/projeto/${projeto}/mapa-base/{z}/{x}/{y}?v=${encodeURIComponent(mapa.versao)}`;
}
