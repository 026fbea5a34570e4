// Which part of its ancestor's image a tile past a raster package's last zoom shows (overzoom.ts draws it).

export interface AncestorCrop {
  /** The ancestor tile at the package's last zoom. */
  ancestor: { z: number; x: number; y: number };
  /** The part of the ancestor's image this tile shows, in the image's pixels. */
  sx: number;
  sy: number;
  sw: number;
  sh: number;
}

/** Where a tile past `nativeMaxZoom` lies within its ancestor's image of `width`×`height` pixels. */
export function ancestorCrop(
  { z, x, y }: { z: number; x: number; y: number },
  nativeMaxZoom: number,
  width: number,
  height: number,
): AncestorCrop {
  const factor = 2 ** (z - nativeMaxZoom);
  const sw = width / factor;
  const sh = height / factor;
  return {
    ancestor: { z: nativeMaxZoom, x: Math.floor(x / factor), y: Math.floor(y / factor) },
    sx: (x % factor) * sw,
    sy: (y % factor) * sh,
    sw,
    sh,
  };
}
