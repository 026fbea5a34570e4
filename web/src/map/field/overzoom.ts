// A raster package's tiles past its last zoom (issue 23): each tile of the screen is cut from its ancestor at the
// package's last zoom and drawn at its own size. Leaflet's maxNativeZoom scales the ancestor's image by CSS instead,
// which past a factor of a few hundred puts the image outside what the browser can lay out (a zoom-3 tile shown at
// zoom 19 is 16 million px wide, 33 million px from the origin) and the map stays grey.
import { type Coords, type DoneCallback, TileLayer, type TileLayerOptions, Util } from 'leaflet';
import { ancestorCrop } from './ancestor-crop';

export interface OverzoomOptions extends TileLayerOptions {
  /** The package's last zoom: past it tiles are cut from their ancestors. */
  nativeMaxZoom: number;
}

export class OverzoomTileLayer extends TileLayer {
  private readonly template: string;
  private readonly nativeMaxZoom: number;

  constructor(template: string, { nativeMaxZoom, ...options }: OverzoomOptions) {
    super(template, options);
    this.template = template;
    this.nativeMaxZoom = nativeMaxZoom;
  }

  override createTile(coords: Coords, done: DoneCallback): HTMLElement {
    if (coords.z <= this.nativeMaxZoom) return super.createTile(coords, done);
    const size = this.getTileSize();
    const canvas = document.createElement('canvas');
    canvas.width = size.x;
    canvas.height = size.y;
    canvas.setAttribute('role', 'presentation');
    const image = new Image();
    image.onload = () => {
      const crop = ancestorCrop(coords, this.nativeMaxZoom, image.naturalWidth, image.naturalHeight);
      canvas.getContext('2d')?.drawImage(image, crop.sx, crop.sy, crop.sw, crop.sh, 0, 0, size.x, size.y);
      // what the tile was cut from, for whoever checks the map's pixels (the e2e)
      Object.assign(canvas.dataset, {
        src: image.src,
        crop: [crop.sx, crop.sy, crop.sw, crop.sh].join(' '),
      });
      done(undefined, canvas);
    };
    image.onerror = () => done(new Error(`bloco indisponível: ${image.src}`), canvas);
    const { ancestor } = ancestorCrop(coords, this.nativeMaxZoom, size.x, size.y);
    image.src = Util.template(this.template, { ...ancestor, s: 'a', r: '' });
    return canvas;
  }
}
