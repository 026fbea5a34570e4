import { describe, expect, it } from 'vitest';
import type { MapPoint } from '../src/map/field/types';
import {
  CLUSTER_MAX_ZOOM,
  clusterTextColor,
  MIXED_COLOR,
  PointClusters,
  pointStyle,
  samePoints,
} from '../src/map/field/point-clusters';

/** A grid of poles about 11 m apart in Zona Centro (Curitiba). */
function grid(side: number, color = '#6a1b9a'): MapPoint[] {
  const points: MapPoint[] = [];
  for (let row = 0; row < side; row += 1) {
    for (let col = 0; col < side; col += 1) {
      points.push({
        id: `poste-${row}-${col}`,
        lat: -25.44 + row * 0.0001,
        lng: -49.28 + col * 0.0001,
        color,
        kind: 'mapa-poste',
        label: 'Poste',
      });
    }
  }
  return points;
}

const ZONE: [number, number, number, number] = [-49.29, -25.45, -49.26, -25.42];

describe('PointClusters', () => {
  it('gathers points into clusters that count them all when zoomed out', () => {
    const clusters = new PointClusters(grid(100));
    const items = clusters.at(ZONE, 14);
    expect(items.every((item) => item.type === 'cluster')).toBe(true);
    const total = items.reduce((sum, item) => sum + (item.type === 'cluster' ? item.count : 1), 0);
    expect(total).toBe(10_000);
  });

  it('shows single points from the zoom after the last clustered one, only those in view', () => {
    const clusters = new PointClusters(grid(100));
    const view: [number, number, number, number] = [-49.2801, -25.4401, -49.2795, -25.4395];
    const items = clusters.at(view, CLUSTER_MAX_ZOOM + 1);
    expect(items.length).toBeGreaterThan(0);
    expect(items.length).toBeLessThan(100);
    expect(items.every((item) => item.type === 'point')).toBe(true);
  });

  it('gives a cluster its points colour, or the mixed colour', () => {
    const purple = new PointClusters(grid(10));
    const [cluster] = purple.at(ZONE, 10);
    expect(cluster).toMatchObject({ type: 'cluster', count: 100, color: '#6a1b9a' });

    const mixed = [...grid(10), ...grid(10, '#c62828').map((point) => ({ ...point, id: `${point.id}-red` }))];
    expect(new PointClusters(mixed).at(ZONE, 10)[0]).toMatchObject({ count: 200, color: MIXED_COLOR });
  });

  it('zooms a tapped cluster to where it falls apart, and draws selected points last', () => {
    const points = grid(10).map((point, index) => ({ ...point, selected: index === 0 }));
    const clusters = new PointClusters(points);
    const [cluster] = clusters.at(ZONE, 10);
    if (cluster?.type !== 'cluster') throw new Error('expected a cluster');
    expect(clusters.expansionZoom(cluster.id)).toBeGreaterThan(10);
    const single = clusters.at(ZONE, 20);
    expect(single.at(-1)).toMatchObject({ type: 'point', point: { id: 'poste-0-0' } });
  });
});

describe('PointClusters without its index (issue 41)', () => {
  it('lists the view points above the clustered zooms without building the cluster index', () => {
    const points = grid(100);
    const clusters = new PointClusters(points);
    // edges between the grid's points: the index keeps coordinates less precisely than the list
    const view: [number, number, number, number] = [-49.28005, -25.44005, -49.27955, -25.43955];
    const items = clusters.at(view, CLUSTER_MAX_ZOOM + 1);
    expect(clusters.indexed).toBe(false);
    const inside = points.filter(
      (point) => point.lng >= view[0] && point.lat >= view[1] && point.lng <= view[2] && point.lat <= view[3],
    );
    expect(items.map((item) => item.key).sort()).toEqual(inside.map((point) => `p${point.id}`).sort());
    // the same points the index gives at that zoom
    clusters.prepare();
    expect(clusters.indexed).toBe(true);
    const viaIndex = (
      clusters as unknown as { clustersIn: (box: typeof view, zoom: number) => { key: string }[] }
    )
      .clustersIn(view, CLUSTER_MAX_ZOOM + 1)
      .map((item) => item.key);
    expect(viaIndex.sort()).toEqual(inside.map((point) => `p${point.id}`).sort());
  });

  it('builds the index the first time a clustered zoom is asked for', () => {
    const clusters = new PointClusters(grid(20));
    expect(clusters.indexed).toBe(false);
    expect(clusters.at(ZONE, 12).length).toBeGreaterThan(0);
    expect(clusters.indexed).toBe(true);
  });

  it('finds points across the antimeridian as Leaflet bounds give them', () => {
    const point: MapPoint = { id: 'x', lat: 0, lng: 179.9, color: '#000000', kind: 'mapa-ip', label: 'IP' };
    const clusters = new PointClusters([point]);
    expect(clusters.at([-180.2, -1, -179.9, 1], 19)).toHaveLength(1);
    expect(clusters.at([-180.0, -1, -179.9, 1], 19)).toHaveLength(0);
  });

  it('draws selected points last', () => {
    const points = grid(5).map((point, index) => ({ ...point, selected: index === 0 }));
    expect(new PointClusters(points).at(ZONE, 19).at(-1)).toMatchObject({ point: { id: 'poste-0-0' } });
  });
});

describe('clusterTextColor', () => {
  it('writes a count in black on light colours and in white on dark ones', () => {
    expect(clusterTextColor('#00ff00')).toBe('#000000'); // lime: IP not collected
    expect(clusterTextColor('#ff00ff')).toBe('#000000'); // fuchsia
    expect(clusterTextColor('#ff0000')).toBe('#000000'); // red: 5.3:1 against 4.0:1
    expect(clusterTextColor('#1565c0')).toBe('#ffffff');
    expect(clusterTextColor(MIXED_COLOR)).toBe('#ffffff');
    expect(clusterTextColor('transparent')).toBe('#ffffff');
  });
});

describe('pointStyle', () => {
  const point: MapPoint = { id: 'a', lat: 0, lng: 0, color: '#00bcd4', kind: 'mapa-bdgd', label: 'BDGD' };

  it('fills a point with its colour and rings a hollow one with it', () => {
    expect(pointStyle(point)).toMatchObject({ fillColor: '#00bcd4', color: '#ffffff', radius: 11 });
    expect(pointStyle({ ...point, hollow: true })).toMatchObject({ fillColor: '#ffffff', color: '#00bcd4' });
    expect(pointStyle({ ...point, selected: true })).toMatchObject({ color: '#000000', radius: 14 });
  });
});

describe('samePoints', () => {
  it('tells a rebuilt list with the same content from a changed one', () => {
    const points = grid(3);
    expect(
      samePoints(
        points,
        points.map((p) => ({ ...p })),
      ),
    ).toBe(true);
    expect(samePoints(points, points.slice(1))).toBe(false);
    expect(
      samePoints(
        points,
        points.map((p, i) => (i === 4 ? { ...p, selected: true } : p)),
      ),
    ).toBe(false);
    expect(
      samePoints(
        points,
        points.map((p, i) => (i === 4 ? { ...p, hollow: true } : p)),
      ),
    ).toBe(false);
  });
});
