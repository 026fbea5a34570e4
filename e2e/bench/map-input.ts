// What the map benches share: recording frame intervals, finger-speed drags and zoom clicks on a Leaflet map,
// and percentiles of what they measured.
import type { Page } from '@playwright/test';

declare global {
  interface Window {
    /** frame timestamps while recording */
    frameLog?: { recording: boolean; stamps: number[] };
    /**
     * performance.now() of the first frame with the map in the page, and with points or clusters on it; of the
     * first click since the probe (re)started (the tap that opens the map step inside the app)
     */
    mapProbe?: MapProbe;
    /** Starts the probe again (a map step opened without a navigation). */
    restartMapProbe?: () => void;
  }
}

export interface MapProbe {
  mapShown?: number;
  pointsShown?: number;
  tapped?: number;
}

/**
 * For page.addInitScript, so it runs before the app's scripts on every navigation: each frame, until it finds them,
 * it looks for points inside the visible map, as SVG shapes and cluster icons (class names) or as drawn pixels of
 * a canvas overlay. It looks at pixels and class names, not at FieldMap's internals, so it measures any way of
 * drawing the points. window.restartMapProbe() starts it again before a tap that opens a map inside the app.
 */
export function installProbe(): void {
  const overlaps = (a: DOMRect, b: DOMRect) =>
    a.right > b.left && a.left < b.right && a.bottom > b.top && a.top < b.bottom && a.width > 0;
  const canvasDrawn = (canvas: HTMLCanvasElement, view: DOMRect): boolean => {
    const rect = canvas.getBoundingClientRect();
    const context = canvas.getContext('2d');
    if (!context || rect.width === 0) return false;
    const scale = canvas.width / rect.width;
    const x = Math.max(0, (view.left - rect.left) * scale);
    const y = Math.max(0, (view.top - rect.top) * scale);
    const width = Math.min(canvas.width - x, view.width * scale);
    const height = Math.min(canvas.height - y, view.height * scale);
    if (width < 1 || height < 1) return false;
    const pixels = context.getImageData(x, y, width, height).data;
    for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) return true;
    return false;
  };
  let generation = 0;
  const start = () => {
    generation += 1;
    const mine = generation;
    const probe: { mapShown?: number; pointsShown?: number; tapped?: number } = {};
    window.mapProbe = probe;
    const until = performance.now() + 120_000;
    const look = () => {
      if (mine !== generation) return;
      const map = document.querySelector('.leaflet-container');
      if (map) {
        probe.mapShown ??= performance.now();
        const view = map.getBoundingClientRect();
        const shapes = Array.from(
          document.querySelectorAll('.mapa-poste, .mapa-bdgd, .mapa-ip, .mapa-cluster'),
        );
        const canvases = Array.from(
          document.querySelectorAll<HTMLCanvasElement>('.leaflet-overlay-pane canvas'),
        );
        if (
          shapes.some((shape) => overlaps(shape.getBoundingClientRect(), view)) ||
          canvases.some((canvas) => canvasDrawn(canvas, view))
        ) {
          probe.pointsShown = performance.now();
          return;
        }
      }
      if (performance.now() < until) requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  };
  document.addEventListener(
    'click',
    (event) => {
      if (window.mapProbe) window.mapProbe.tapped ??= event.timeStamp;
    },
    true,
  );
  window.restartMapProbe = start;
  start();
}

export async function startFrames(page: Page): Promise<void> {
  await page.evaluate(() => {
    const log = { recording: true, stamps: [] as number[] };
    window.frameLog = log;
    const tick = (stamp: number) => {
      if (!log.recording) return;
      log.stamps.push(stamp);
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

/** The intervals between the frames recorded since startFrames. */
export async function stopFrames(page: Page): Promise<number[]> {
  const stamps = await page.evaluate(() => {
    if (!window.frameLog) return [];
    window.frameLog.recording = false;
    return window.frameLog.stamps;
  });
  return stamps.slice(1).map((stamp, index) => stamp - (stamps[index] ?? stamp));
}

/** A finger-speed drag across the map's centre: 30 moves a frame apart, then `settleMs` for the redraw. */
export async function drag(page: Page, dx: number, dy: number, settleMs = 300): Promise<void> {
  const box = await page.locator('.leaflet-container').boundingBox();
  if (!box) throw new Error('map not visible');
  const [x, y] = [box.x + box.width / 2 - dx / 2, box.y + box.height / 2 - dy / 2];
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let step = 1; step <= 30; step += 1) {
    await page.mouse.move(x + (dx * step) / 30, y + (dy * step) / 30);
    await page.waitForTimeout(16);
  }
  await page.mouse.up();
  await page.waitForTimeout(settleMs);
}

/** One click on Leaflet's zoom control; its animation is 250 ms, the rest lets moveend work land in the window. */
export async function zoom(page: Page, direction: 'in' | 'out', settleMs = 600): Promise<void> {
  await page.locator(`.leaflet-control-zoom-${direction}`).click();
  await page.waitForTimeout(settleMs);
}

/** Frame intervals summed up: count, wall time, median, p95, max and the frame rate they make. */
export function frameStats(intervals: number[]) {
  const wallMs = intervals.reduce((sum, interval) => sum + interval, 0);
  return {
    frames: intervals.length,
    wallMs: Math.round(wallMs),
    fps: wallMs > 0 ? Math.round((intervals.length * 1000 * 10) / wallMs) / 10 : 0,
    medianMs: Math.round(percentile(intervals, 50) * 10) / 10,
    p95Ms: Math.round(percentile(intervals, 95) * 10) / 10,
    maxMs: Math.round(Math.max(0, ...intervals)),
  };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}
