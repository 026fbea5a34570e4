// Many points as ONE Leaflet path on the canvas renderer (issue 41): a zone's view at zoom 18 holds thousands of
// points, and a CircleMarker each (an object, its projection, its listeners, its bounds) cost a phone a second per
// zoom step and most of the map step's first draw (e2e/bench/field-map-50k.bench.ts). This layer keeps the view's
// points in a list and typed arrays, projects them in one loop and draws them in one pass, with the same circles as
// pointStyle; the renderer still positions the canvas, animates zooms and asks it for hits, so a tap on a point
// reaches onPoint (and not the map).
import { Bounds, type Canvas, CRS, type Map as LeafletMap, Path, type Point, Util } from 'leaflet';
import { pointStyle } from './point-clusters';
import type { MapPoint } from './types';

/** What the layer uses of Leaflet's canvas renderer while it draws (Leaflet 1.9's Canvas: the path protocol). */
interface CanvasDrawing {
  _ctx?: CanvasRenderingContext2D;
  _drawing?: boolean;
}

/** Leaflet's SphericalMercator.MAX_LATITUDE. */
const MAX_LATITUDE = 85.0511287798;
/** The widest a point's circle reaches from its centre: a selected point's radius and half its ring. */
const REACH = 14 + 6 / 2;

export class PointsLayer extends Path {
  private points: readonly MapPoint[] = [];
  private xs = new Float64Array(0);
  private ys = new Float64Array(0);
  /** the pixel bounds of what is drawn, for the renderer's partial redraws and hit tests */
  _pxBounds: Bounds | undefined;
  private hit: MapPoint | null = null;

  /** `onPoint` hears a tap on a point; the map then hears nothing of it. */
  constructor(renderer: Canvas, onPoint: (point: MapPoint) => void) {
    super();
    Util.setOptions(this, { renderer, interactive: true, bubblingMouseEvents: false, weight: 0 });
    this.on('click', () => {
      if (this.hit) onPoint(this.hit);
    });
  }

  /** The points to draw now, bottom to top. */
  setPoints(points: readonly MapPoint[]): void {
    this.points = points;
    if (this.map()) this.redraw();
  }

  private map() {
    return (this as unknown as { _map?: LeafletMap })._map;
  }

  private renderer(): CanvasDrawing {
    return (this as unknown as { _renderer?: CanvasDrawing })._renderer ?? {};
  }

  /** Leaflet's path protocol: the points in layer pixels, after a zoom or a reset. */
  _project(): void {
    const map = this.map();
    const { points } = this;
    if (!map) return;
    if (this.xs.length < points.length) {
      this.xs = new Float64Array(points.length);
      this.ys = new Float64Array(points.length);
    }
    // Leaflet's latLngToLayerPoint (Web Mercator, rounded to the pixel), without two objects per point.
    const mercator = map.options.crs === CRS.EPSG3857;
    const origin = map.getPixelOrigin();
    const world = 256 * 2 ** map.getZoom();
    let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let i = 0; i < points.length; i += 1) {
      const point = points[i];
      if (!point) continue;
      let x: number;
      let y: number;
      if (mercator) {
        const sin = Math.sin((Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, point.lat)) * Math.PI) / 180);
        x = Math.round(world * (0.5 + point.lng / 360)) - origin.x;
        y = Math.round(world * (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI))) - origin.y;
      } else {
        ({ x, y } = map.latLngToLayerPoint([point.lat, point.lng]));
      }
      this.xs[i] = x;
      this.ys[i] = y;
      minX = Math.min(minX, x);
      minY = Math.min(minY, y);
      maxX = Math.max(maxX, x);
      maxY = Math.max(maxY, y);
    }
    this._pxBounds =
      points.length > 0 ? new Bounds([minX - REACH, minY - REACH], [maxX + REACH, maxY + REACH]) : undefined;
  }

  _update(): void {
    if (this.map()) this._updatePath();
  }

  /** Draws every point when the renderer draws (it calls this outside its drawing too: then nothing happens). */
  _updatePath(): void {
    const { _ctx: ctx, _drawing: drawing } = this.renderer();
    if (!ctx || !drawing) return;
    const { points, xs, ys } = this;
    for (let i = 0; i < points.length; i += 1) {
      const point = points[i];
      if (!point) continue;
      const style = pointStyle(point);
      ctx.beginPath();
      ctx.arc(xs[i] ?? 0, ys[i] ?? 0, style.radius, 0, Math.PI * 2, false);
      ctx.globalAlpha = style.fillOpacity;
      ctx.fillStyle = style.fillColor;
      ctx.fill();
      ctx.globalAlpha = 1;
      ctx.lineWidth = style.weight;
      ctx.strokeStyle = style.color;
      ctx.stroke();
    }
  }

  _empty(): boolean {
    return this.points.length === 0;
  }

  /** The renderer's hit test: the topmost point whose circle holds the pixel. */
  _containsPoint(p: Point): boolean {
    const { points, xs, ys } = this;
    for (let i = points.length - 1; i >= 0; i -= 1) {
      const point = points[i];
      if (!point) continue;
      const style = pointStyle(point);
      const reach = style.radius + style.weight / 2;
      const [dx, dy] = [p.x - (xs[i] ?? NaN), p.y - (ys[i] ?? NaN)];
      if (dx * dx + dy * dy <= reach * reach) {
        this.hit = point;
        return true;
      }
    }
    this.hit = null;
    return false;
  }
}
