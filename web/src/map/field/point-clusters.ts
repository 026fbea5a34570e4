// What the field map draws for a view: the points, gathered into clusters below a zoom (a supercluster index).
// From the zoom where points stand apart (the technician's) the view's points come from a scan of two typed arrays,
// which costs well under a millisecond for 50,000 points: the cluster index (a few hundred milliseconds for a zone's
// tens of thousands on a phone) is built only when first needed or when the map is idle (prepare()), so the map
// step's first draw does not wait for it (issue 41, e2e/bench/field-map-50k.bench.ts).
import Supercluster, { type PointFeature } from 'supercluster';
import type { MapPoint } from './types';

/**
 * Clusters up to zoom 17, single points from 18 on (the technician works at 19, SPEC.md's default). At 18 a point
 * (radius 11 px, 0.54 m/px at Curitiba's latitude) is 12 m wide, well under the 30–40 m between street poles, so
 * the points stand apart. At 17 they are twice as wide and a dense project's view (plus the padding drawn for
 * panning) holds several thousand of them: with 10,000 points in Zona Centro, zooming to 17 took a second to
 * build their Leaflet layers (e2e/bench/field-map.bench.ts). SPEC.md's 'clustering disabled at zoom 25' is above
 * the map's max zoom (20), so it sets no bound of its own.
 */
export const CLUSTER_MAX_ZOOM = 17;
/** Screen pixels within which points join a cluster, so the cluster icons (44–56 px) seldom overlap. */
export const CLUSTER_RADIUS = 80;
/** supercluster counts pixels on 512-px tiles by default; Leaflet's tiles are 256 px. */
const TILE_SIZE = 256;
/** Colour of a cluster whose points have different colours. */
export const MIXED_COLOR = '#37474f';

export type MapItem =
  | { type: 'point'; key: string; point: MapPoint }
  | { type: 'cluster'; key: string; id: number; lat: number; lng: number; count: number; color: string };

/** west, south, east, north in degrees (Leaflet's padded view bounds; longitudes may run past ±180). */
export type ViewBox = [number, number, number, number];

interface ClusterColor {
  color: string | null;
}

/** Whether a longitude lies in [west, east], with Leaflet's bounds that may run past ±180. */
function inLongitudes(lng: number, west: number, east: number): boolean {
  return (
    (lng >= west && lng <= east) ||
    (lng + 360 >= west && lng + 360 <= east) ||
    (lng - 360 >= west && lng - 360 <= east)
  );
}

export class PointClusters {
  private index: Supercluster<{ index: number }, ClusterColor> | null = null;
  private readonly lats: Float64Array;
  private readonly lngs: Float64Array;

  constructor(readonly points: readonly MapPoint[]) {
    this.lats = Float64Array.from(points, (point) => point.lat);
    this.lngs = Float64Array.from(points, (point) => point.lng);
  }

  /** Whether the cluster index is built. */
  get indexed(): boolean {
    return this.index !== null;
  }

  /** Builds the cluster index now (the map calls it when idle), if it is not built yet. */
  prepare(): void {
    this.tree();
  }

  private tree(): Supercluster<{ index: number }, ClusterColor> {
    if (this.index) return this.index;
    const { points } = this;
    const index = new Supercluster<{ index: number }, ClusterColor>({
      maxZoom: CLUSTER_MAX_ZOOM,
      radius: CLUSTER_RADIUS,
      extent: TILE_SIZE,
      map: ({ index }) => ({ color: points[index]?.color ?? null }),
      reduce: (merged, other) => {
        if (merged.color !== other.color) merged.color = null;
      },
    });
    const features = new Array<PointFeature<{ index: number }>>(points.length);
    for (let i = 0; i < points.length; i += 1) {
      features[i] = {
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [this.lngs[i] ?? 0, this.lats[i] ?? 0] },
        properties: { index: i },
      };
    }
    index.load(features);
    this.index = index;
    return index;
  }

  /** The clusters and single points in a view; selected points come last, so they are drawn on top. */
  at(box: ViewBox, zoom: number): MapItem[] {
    const level = Math.round(zoom);
    return level > CLUSTER_MAX_ZOOM ? this.pointsIn(box) : this.clustersIn(box, level);
  }

  /** Above the clustered zooms: every point in the view, in the list's order (selected last). */
  private pointsIn([west, south, east, north]: ViewBox): MapItem[] {
    const items: MapItem[] = [];
    const selected: MapItem[] = [];
    const { lats, lngs, points } = this;
    for (let i = 0; i < points.length; i += 1) {
      const lat = lats[i] ?? NaN;
      if (lat < south || lat > north || !inLongitudes(lngs[i] ?? NaN, west, east)) continue;
      const point = points[i];
      if (point) (point.selected ? selected : items).push({ type: 'point', key: `p${point.id}`, point });
    }
    return items.concat(selected);
  }

  private clustersIn(box: ViewBox, level: number): MapItem[] {
    const items: MapItem[] = [];
    const selected: MapItem[] = [];
    for (const feature of this.tree().getClusters(box, level)) {
      const [lng = 0, lat = 0] = feature.geometry.coordinates;
      const properties = feature.properties;
      if ('cluster' in properties) {
        items.push({
          type: 'cluster',
          key: `c${properties.cluster_id}`,
          id: properties.cluster_id,
          lat,
          lng,
          count: properties.point_count,
          color: properties.color ?? MIXED_COLOR,
        });
        continue;
      }
      const point = this.points[properties.index];
      if (!point) continue;
      (point.selected ? selected : items).push({ type: 'point', key: `p${point.id}`, point });
    }
    return items.concat(selected);
  }

  /** The zoom at which a cluster falls apart, where a tap on it takes the map. */
  expansionZoom(clusterId: number): number {
    return this.tree().getClusterExpansionZoom(clusterId);
  }
}

/** WCAG's relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const channel = (offset: number) => {
    const value = Number.parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/**
 * The count's colour on a cluster of this colour (#rrggbb): white or black, whichever contrasts more. White on the
 * IP points' lime was 1.4:1 (axe, e2e/tests/technician-mapa-pontos.spec.ts); black on it is 15:1.
 */
export function clusterTextColor(hex: string): '#ffffff' | '#000000' {
  if (!/^#[0-9a-f]{6}$/i.test(hex)) return '#ffffff';
  const l = luminance(hex);
  return (l + 0.05) / 0.05 > 1.05 / (l + 0.05) ? '#000000' : '#ffffff';
}

export interface PointStyle {
  radius: number;
  color: string;
  weight: number;
  fillColor: string;
  fillOpacity: number;
}

/** A point's circle: filled with its colour, or hollow (coloured ring, white fill); selected is larger. */
export function pointStyle(point: MapPoint): PointStyle {
  const radius = point.selected ? 14 : 11;
  if (point.hollow) {
    return {
      radius,
      color: point.color,
      weight: point.selected ? 6 : 4,
      fillColor: '#ffffff',
      fillOpacity: 0.7,
    };
  }
  return {
    radius,
    color: point.selected ? '#000000' : '#ffffff',
    weight: 3,
    fillColor: point.color,
    fillOpacity: 0.95,
  };
}

/** Whether two point lists draw the same; screens rebuild their list on every render. */
export function samePoints(a: readonly MapPoint[], b: readonly MapPoint[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) {
    const p = a[i];
    const q = b[i];
    if (!p || !q) return false;
    if (
      p.id !== q.id ||
      p.lat !== q.lat ||
      p.lng !== q.lng ||
      p.color !== q.color ||
      p.kind !== q.kind ||
      p.label !== q.label ||
      Boolean(p.selected) !== Boolean(q.selected) ||
      Boolean(p.hollow) !== Boolean(q.hollow)
    ) {
      return false;
    }
  }
  return true;
}
