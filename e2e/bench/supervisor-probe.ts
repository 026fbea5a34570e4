// What the supervisor map's benches share: a probe stamping a click and the first frame whose map shows the
// change (data-pontos / data-clusters, set right after each paint), the map's drag and zoom at its pace, and the
// statistics of a series.
import type { Page } from '@playwright/test';
import { drag as dragMap, percentile, zoom as zoomMap } from './map-input';

declare global {
  interface Window {
    benchProbe?: { clickedAt?: number; changedAt?: number };
  }
}

/**
 * Arms the probe: the next click whose target matches `selector` is stamped, then each frame compares the map's
 * data-pontos/data-clusters with what they were at the click, and stamps the first frame that differs (or, with
 * `untilClusters`, the first frame with clusters or points drawn at all).
 */
export async function armProbe(page: Page, selector: string, untilClusters: boolean): Promise<void> {
  await page.evaluate(
    ({ selector, untilClusters }) => {
      const probe: { clickedAt?: number; changedAt?: number } = {};
      window.benchProbe = probe;
      const state = () => {
        const box = document.querySelector<HTMLElement>('[data-testid="supervisor-map"]');
        return box === null ? null : `${box.dataset.pontos ?? ''}/${box.dataset.clusters ?? ''}`;
      };
      const drawn = () => {
        const box = document.querySelector<HTMLElement>('[data-testid="supervisor-map"]');
        return box !== null && Number(box.dataset.clusters ?? 0) + Number(box.dataset.pontos ?? 0) > 0;
      };
      const listener = (event: Event) => {
        if (!(event.target instanceof Element) || event.target.closest(selector) === null) return;
        document.removeEventListener('click', listener, true);
        probe.clickedAt = performance.now();
        const before = state();
        const look = () => {
          if (untilClusters ? drawn() : state() !== before) {
            probe.changedAt = performance.now();
            return;
          }
          if (performance.now() - (probe.clickedAt ?? 0) < 60_000) requestAnimationFrame(look);
        };
        requestAnimationFrame(look);
      };
      document.addEventListener('click', listener, true);
    },
    { selector, untilClusters },
  );
}

export async function probeMs(page: Page): Promise<number> {
  await page.waitForFunction(() => window.benchProbe?.changedAt !== undefined, null, { timeout: 60_000 });
  return page.evaluate(() => (window.benchProbe?.changedAt ?? 0) - (window.benchProbe?.clickedAt ?? 0));
}

// The supervisor's canvas redraw after a move takes longer to settle than the field map's.
export const drag = (page: Page, dx: number, dy: number) => dragMap(page, dx, dy, 400);
export const zoom = (page: Page, direction: 'in' | 'out') => zoomMap(page, direction, 700);

const round1 = (value: number) => Math.round(value * 10) / 10;

export function stats(values: number[]) {
  return {
    runs: values.map(round1),
    medianMs: round1(percentile(values, 50)),
    p95Ms: round1(percentile(values, 95)),
  };
}

export function frameStats(intervals: number[]) {
  return {
    frames: intervals.length,
    wallMs: Math.round(intervals.reduce((sum, interval) => sum + interval, 0)),
    medianMs: round1(percentile(intervals, 50)),
    p95Ms: round1(percentile(intervals, 95)),
    maxMs: Math.round(Math.max(0, ...intervals)),
    over50Ms: intervals.filter((interval) => interval > 50).length,
  };
}

