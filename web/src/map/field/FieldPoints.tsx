// The field map's points as one Leaflet layer fed by a cluster index: only what is in view is drawn, and a city
// project's thousands of points go on one canvas instead of thousands of SVG shapes or React components.
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  canvas,
  circleMarker,
  divIcon,
  layerGroup,
  type Layer,
  type LeafletKeyboardEvent,
  marker,
  type Renderer,
} from 'leaflet';
import { useMap } from 'react-leaflet';
import { type MapItem, PointClusters, pointStyle, samePoints, type ViewBox } from './point-clusters';
import type { MapPoint } from './types';

/**
 * Up to this many points each one is an SVG shape carrying its class names (tests find `.mapa-poste`, and the
 * browser hit-tests it exactly); above it they share a canvas, which costs nothing per point while panning.
 */
export const SVG_POINT_LIMIT = 500;
/** Points and clusters are fetched for the view plus half a view each side, so a short pan shows no gap. */
const VIEW_PADDING = 0.5;

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
    const renderer: Renderer | undefined =
      clusters.points.length > SVG_POINT_LIMIT ? canvas({ padding: VIEW_PADDING }) : undefined;
    const group = layerGroup().addTo(map);
    let drawn = new Map<string, Layer>();

    const layerOf = (item: MapItem): Layer => {
      if (item.type === 'point') {
        const { point } = item;
        const circle = circleMarker([point.lat, point.lng], {
          ...pointStyle(point),
          className: `${point.kind}${point.selected ? ' mapa-selecionado' : ''}`,
          bubblingMouseEvents: false,
          ...(renderer ? { renderer } : {}),
        });
        circle.on('click', () => onClick.current?.(point.id));
        return circle;
      }
      const size = item.count < 100 ? 44 : item.count < 1000 ? 50 : 56;
      const badge = document.createElement('span');
      badge.style.background = item.color;
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
      for (const item of clusters.at(box, map.getZoom()))
        next.set(item.key, drawn.get(item.key) ?? layerOf(item));
      for (const [key, layer] of drawn) if (!next.has(key)) group.removeLayer(layer);
      for (const [key, layer] of next) if (!drawn.has(key)) group.addLayer(layer);
      drawn = next;
    };

    draw();
    // zoomend is followed by moveend, so one listener serves pans and zooms.
    map.on('moveend', draw);
    return () => {
      map.off('moveend', draw);
      group.remove();
      if (renderer) map.removeLayer(renderer);
    };
  }, [map, clusters]);

  return null;
}
