// Drives the supervisor map's points: after each move, asks the cluster worker what the view shows and paints
// the answer on the canvas; a click finds the nearest drawn point or cluster; live changes reach the worker.
import type { LeafletMouseEvent, Map as LeafletMap } from 'leaflet';
import type { PontoRef, PontosStore } from './compact-points';
import type { Fluxo } from '@novus/domain/flows/keys';
import { ALL_LAYERS_MASK, type Colorir, fluxoOfLayer } from './layers';
import { PontosCanvas } from './pontos-canvas';
import type { PontosSource } from './pontos-source';
import { drawnAt, drawnPoints, frameOf, hitTest, type ViewFrame } from './view-frame';

/** The view is queried this many pixels beyond each edge, so a point cut by the edge is still drawn. */
const EDGE_PIXELS = 24;
/** Live events redraw at most this often: each may rebuild a layer's cluster index in the worker. */
const LIVE_REDRAW_MS = 250;

export interface DrawStats {
  pontos: number;
  clusters: number;
}

export interface ControllerEvents {
  onDrawn: (stats: DrawStats) => void;
  onSelect: (ref: PontoRef) => void;
}

export class PontosController {
  private readonly canvas: PontosCanvas;
  private store: PontosStore | null = null;
  private mask = ALL_LAYERS_MASK;
  private clusterizar = true;
  private colorir: Colorir = 'fluxo';
  /** Only the answer to the newest query is painted. */
  private latest = 0;
  private frame: ViewFrame | null = null;
  private liveTimer: ReturnType<typeof setTimeout> | null = null;
  private destroyed = false;

  /** The client belongs to the page, which may load it before the map exists; the controller only queries it. */
  constructor(
    private readonly map: LeafletMap,
    private readonly client: PontosSource,
    private readonly events: ControllerEvents,
  ) {
    this.canvas = new PontosCanvas(map);
    // zoomend is followed by moveend, so one listener serves pans and zooms.
    map.on('moveend resize', this.redraw);
    map.on('zoomstart', this.forget);
    map.on('click', this.click);
  }

  /** The points to draw; null clears the map while the next ones load. */
  setStore(store: PontosStore | null): void {
    if (store === this.store) return;
    this.store = store;
    if (store !== null) this.client.load(store, this.prepareMask());
    this.forget();
    this.redraw();
  }

  setOptions(mask: number, clusterizar: boolean, colorir: Colorir = 'fluxo'): void {
    if (mask === this.mask && clusterizar === this.clusterizar && colorir === this.colorir) return;
    this.mask = mask;
    this.clusterizar = clusterizar;
    this.colorir = colorir;
    this.redraw();
  }

  /** A live event added or moved a point of the store. */
  pontoChanged(ref: PontoRef): void {
    if (this.store === null) return;
    this.client.upsert(this.store, ref);
    if (this.liveTimer !== null) return;
    this.liveTimer = setTimeout(() => {
      this.liveTimer = null;
      this.redraw();
    }, LIVE_REDRAW_MS);
  }

  /** The container pixel where point `ref` is drawn on its own, or null when it is not (hidden, clustered, away). */
  pointPixel(ref: PontoRef): { x: number; y: number } | null {
    const frame = this.frame;
    if (frame === null || frame.zoom !== this.map.getZoom()) return null;
    const world = drawnAt(frame, ref);
    if (world === null) return null;
    const origin = this.map.getPixelBounds().min;
    const size = this.map.getSize();
    if (origin === undefined) return null;
    const x = world[0] - origin.x;
    const y = world[1] - origin.y;
    if (x < 0 || y < 0 || x > size.x || y > size.y) return null;
    return { x, y };
  }

  /** The clusters drawn now, with their container pixels (for the e2e; see SupervisorTestHook). */
  clusterPixels(): { fluxo: Fluxo; count: number; x: number; y: number }[] {
    const frame = this.frame;
    const origin = this.map.getPixelBounds().min;
    if (frame === null || origin === undefined || frame.zoom !== this.map.getZoom()) return [];
    const clusters: { fluxo: Fluxo; count: number; x: number; y: number }[] = [];
    for (let k = 0; k < frame.clusterX.length; k += 1) {
      const fluxo = fluxoOfLayer(frame.result.clusterLayer[k] ?? -1);
      if (fluxo === undefined) continue;
      clusters.push({
        fluxo,
        count: frame.result.clusterCount[k] ?? 0,
        x: (frame.clusterX[k] ?? 0) - origin.x,
        y: (frame.clusterY[k] ?? 0) - origin.y,
      });
    }
    return clusters;
  }

  /** The single points drawn now, with their places in the store and container pixels (for the e2e). */
  pointPixels(): { fluxo: Fluxo; index: number; x: number; y: number }[] {
    const frame = this.frame;
    const origin = this.map.getPixelBounds().min;
    if (frame === null || origin === undefined || frame.zoom !== this.map.getZoom()) return [];
    const points: { fluxo: Fluxo; index: number; x: number; y: number }[] = [];
    for (let k = 0; k < frame.pointX.length; k += 1) {
      const x = frame.pointX[k] ?? Number.NaN;
      if (Number.isNaN(x)) continue;
      points.push({
        fluxo: frame.pointFluxo[k] ?? 'hc',
        index: frame.result.pointIndex[k] ?? 0,
        x: x - origin.x,
        y: (frame.pointY[k] ?? 0) - origin.y,
      });
    }
    return points;
  }

  destroy(): void {
    this.destroyed = true;
    this.map.off('moveend resize', this.redraw);
    this.map.off('zoomstart', this.forget);
    this.map.off('click', this.click);
    if (this.liveTimer !== null) clearTimeout(this.liveTimer);
    this.canvas.remove();
  }

  /** The layers whose clusters the next draw needs. */
  private prepareMask(): number {
    return this.clusterizar ? this.mask : 0;
  }

  private readonly redraw = (): void => {
    const store = this.store;
    // the worker may hold the next answer already: setStore draws it when it comes
    if (store === null || this.destroyed || !this.client.holds(store)) return;
    this.latest += 1;
    const request = this.latest;
    const zoom = this.map.getZoom();
    const pixels = this.map.getPixelBounds();
    if (pixels.min === undefined || pixels.max === undefined) return;
    const northWest = this.map.unproject([pixels.min.x - EDGE_PIXELS, pixels.min.y - EDGE_PIXELS], zoom);
    const southEast = this.map.unproject([pixels.max.x + EDGE_PIXELS, pixels.max.y + EDGE_PIXELS], zoom);
    this.client
      .query({
        bbox: [northWest.lng, southEast.lat, southEast.lng, northWest.lat],
        zoom,
        clusterizar: this.clusterizar,
        mask: this.mask,
      })
      .then(
        (result) => {
          // a newer query, another project or filter, or a zoom under way (its moveend queries again)
          if (request !== this.latest || store !== this.store || this.destroyed) return;
          if (this.map.getZoom() !== zoom) return;
          const frame = frameOf(result, store, zoom, this.colorir);
          const origin = this.map.getPixelBounds().min;
          if (origin === undefined) return;
          this.canvas.paint(frame, origin.x, origin.y);
          this.frame = frame;
          this.events.onDrawn({ pontos: drawnPoints(frame), clusters: frame.clusterX.length });
        },
        () => undefined,
      );
  };

  /** What was drawn no longer matches the screen (a zoom starts, the data changed). */
  private readonly forget = (): void => {
    this.frame = null;
    this.canvas.clear();
  };

  private readonly click = (event: LeafletMouseEvent): void => {
    const frame = this.frame;
    if (frame === null || frame.zoom !== this.map.getZoom()) return;
    const world = this.map.project(event.latlng, frame.zoom);
    const hit = hitTest(frame, world.x, world.y);
    if (hit === null) return;
    if (hit.kind === 'point') {
      this.events.onSelect(hit.ref);
      return;
    }
    // the cluster's id names a cluster of the drawn points only
    if (this.store === null || !this.client.holds(this.store)) return;
    this.client.expansionZoom(hit.layer, hit.clusterId).then(
      (zoom) => {
        if (!this.destroyed) this.map.setView([hit.lat, hit.lng], Math.min(zoom, this.map.getMaxZoom()));
      },
      () => undefined,
    );
  };
}
