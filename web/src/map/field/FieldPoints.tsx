// The field map's points as one Leaflet layer fed by a cluster index: only what is in view is drawn, and a city
// project's thousands of points go on one canvas, as one path (points-layer.ts), instead of thousands of SVG shapes,
// CircleMarkers or React components. The cluster index is built when the map is first idle after its first draw.
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  canvas,
  circleMarker,
  divIcon,
  layerGroup,
  type Layer,
  type LeafletKeyboardEvent,
  marker,
} from 'leaflet';
import { useMap } from 'react-leaflet';
import {
  clusterTextColor,
  type MapItem,
  PointClusters,
  pointStyle,
  samePoints,
  type ViewBox,
} from './point-clusters';
import { PointsLayer } from './points-layer';
import type { MapPoint } from './types';

/**
 * Up to this many points each one is an SVG shape carrying its class names (tests find `.mapa-poste`, and the
 * browser hit-tests it exactly); above it the view's points are one path on a canvas (PointsLayer), which costs
 * no object per point.
 */
export const SVG_POINT_LIMIT = 500;
/** Points and clusters are fetched for the view plus half a view each side, so a short pan shows no gap. */
const VIEW_PADDING = 0.5;

let colorContext: CanvasRenderingContext2D | null | undefined;
const hexes = new Map<string, string>();

/** A CSS colour ('lime', '#1565c0') as #rrggbb, as the browser reads it. */
function hexOf(color: string): string {
  let hex = hexes.get(color);
  if (hex === undefined) {
    colorContext ??= document.createElement('canvas').getContext('2d');
    if (!colorContext) return color;
    colorContext.fillStyle = '#000000';
    colorContext.fillStyle = color;
    hex = String(colorContext.fillStyle);
    hexes.set(color, hex);
  }
  return hex;
}

/** Runs `work` when the page is idle (after the first draw has reached the screen); returns how to cancel it. */
function whenIdle(work: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(work, { timeout: 2000 });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(work, 200);
  return () => clearTimeout(handle);
}

interface Props {
  points: readonly MapPoint[];
  onPointClick?: (id: string) => void;
}

export function FieldPoints({ points, onPointClick }: Props) {
  const map = useMap();
  // Screens build a new list on every render; the index is rebuilt only when what it draws changes.
  const [stable, setStable] = useState(points);
  if (stable !== points && !samePoints(stable, points)) setStable(points);
  const clusters = useMemo(() => new PointClusters(stable), [stable]);
  const onClick = useRef(onPointClick);
  useEffect(() => {
    onClick.current = onPointClick;
  }, [onPointClick]);

  useEffect(() => {
    const renderer = clusters.points.length > SVG_POINT_LIMIT ? canvas({ padding: VIEW_PADDING }) : undefined;
    const group = layerGroup().addTo(map);
    let drawn = new Map<string, Layer>();
    // On the canvas, every single point of the view is in this one layer; clusters stay markers (a few dozen).
    const singles = renderer
      ? new PointsLayer(renderer, (point) => onClick.current?.(point.id)).addTo(group)
      : null;

    const layerOf = (item: MapItem): Layer => {
      if (item.type === 'point') {
        const { point } = item;
        const circle = circleMarker([point.lat, point.lng], {
          ...pointStyle(point),
          className: `${point.kind}${point.selected ? ' mapa-selecionado' : ''}`,
          bubblingMouseEvents: false,
        });
        circle.on('click', () => onClick.current?.(point.id));
        return circle;
      }
      const size = item.count < 100 ? 44 : item.count < 1000 ? 50 : 56;
      const badge = document.createElement('span');
      badge.style.background = item.color;
      badge.style.color = clusterTextColor(hexOf(item.color));
      if (item.count >= 10_000) badge.style.fontSize = '13px';
      badge.textContent = String(item.count);
      const cluster = marker([item.lat, item.lng], {
        icon: divIcon({ className: 'mapa-cluster', html: badge, iconSize: [size, size] }),
        title: `${item.count} pontos: toque para aproximar`,
      });
      const zoomIn = () =>
        map.setView([item.lat, item.lng], Math.min(clusters.expansionZoom(item.id), map.getMaxZoom()));
      cluster.on('click', zoomIn);
      cluster.on('keydown', (event: LeafletKeyboardEvent) => {
        if (event.originalEvent.key === 'Enter' || event.originalEvent.key === ' ') zoomIn();
      });
      return cluster;
    };

    const draw = () => {
      const view = map.getBounds().pad(VIEW_PADDING);
      const box: ViewBox = [view.getWest(), view.getSouth(), view.getEast(), view.getNorth()];
      const next = new Map<string, Layer>();
      const single: MapPoint[] = [];
      for (const item of clusters.at(box, map.getZoom())) {
        if (singles && item.type === 'point') single.push(item.point);
        else next.set(item.key, drawn.get(item.key) ?? layerOf(item));
      }
      for (const [key, layer] of drawn) if (!next.has(key)) group.removeLayer(layer);
      for (const [key, layer] of next) if (!drawn.has(key)) group.addLayer(layer);
      drawn = next;
      singles?.setPoints(single);
    };

    draw();
    // zoomend is followed by moveend, so one listener serves pans and zooms.
    map.on('moveend', draw);
    const cancelIndex = whenIdle(() => clusters.prepare());
    return () => {
      cancelIndex();
      map.off('moveend', draw);
      group.remove();
      if (renderer) map.removeLayer(renderer);
    };
  }, [map, clusters]);

  return null;
}
