// What the map benches share: recording frame intervals, finger-speed drags and zoom clicks on a Leaflet map,
// and percentiles of what they measured.
import type { Page } from '@playwright/test';

declare global {
  interface Window {
    /** frame timestamps while recording */
    frameLog?: { recording: boolean; stamps: number[] };
  }
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

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}
