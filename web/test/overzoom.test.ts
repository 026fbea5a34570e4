// A raster package past its last zoom: each screen tile is the matching part of its ancestor's image.
import { describe, expect, it } from 'vitest';
import { ancestorCrop } from '../src/map/field/ancestor-crop';
import { latToTileY, lngToTileX } from '../src/offline/tiles';

describe('ancestorCrop', () => {
  it('is the whole image at the last zoom and a quarter one zoom past it', () => {
    expect(ancestorCrop({ z: 3, x: 2, y: 4 }, 3, 256, 256)).toEqual({
      ancestor: { z: 3, x: 2, y: 4 },
      sx: 0,
      sy: 0,
      sw: 256,
      sh: 256,
    });
    expect(ancestorCrop({ z: 4, x: 5, y: 8 }, 3, 256, 256)).toEqual({
      ancestor: { z: 3, x: 2, y: 4 },
      sx: 128,
      sy: 0,
      sw: 128,
      sh: 128,
    });
  });

  it('finds the zoom-3 pixel under a street of Curitiba at zoom 19', () => {
    const [lat, lng] = [-25.435, -49.275];
    const tile = { z: 19, x: lngToTileX(lng, 19), y: latToTileY(lat, 19) };
    const crop = ancestorCrop(tile, 3, 512, 512);
    expect(crop.ancestor).toEqual({ z: 3, x: lngToTileX(lng, 3), y: latToTileY(lat, 3) });
    expect(crop.sw).toBeCloseTo(512 / 65536, 10);
    // the same spot as the ancestor's pixel computed straight from the coordinates, to a pixel
    const worldX = ((lng + 180) / 360) * 8 * 512;
    expect(Math.floor(crop.sx)).toBe(Math.floor(worldX - crop.ancestor.x * 512));
  });
});
