// A new version of the app reaching a phone that runs the previous one (issues 12 and 25). To the browser a new
// deploy is a worker script that differs by a byte: the phone installs a "previous build" whose sw.js, served by
// context.route to the first registration, is one line longer than the server's. The browser fetches the
// script of an update check itself, out of reach of routing, so the server's own sw.js is the new build it finds.
import path from 'node:path';
import {
  type APIRequestContext,
  type BrowserContext,
  expect,
  type Locator,
  type Page,
  test,
} from '@playwright/test';

declare global {
  interface Window {
    /** markPage's mark: gone after a reload. */
    novusMarca?: string;
  }
}

/**
 * Routes the worker script until `unroute` is called; call it once the phone installed the previous build.
 * `installed` counts the registrations that got it.
 */
export async function servePreviousBuild(
  context: BrowserContext,
  admin: APIRequestContext,
): Promise<{ installed: () => number; unroute: () => Promise<void> }> {
  const original = await (await admin.get('/sw.js')).text();
  let installed = 0;
  await context.route('**/sw.js', async (route) => {
    installed += 1;
    await route.fulfill({
      status: 200,
      contentType: 'text/javascript; charset=utf-8',
      headers: { 'Cache-Control': 'no-cache' },
      body: `${original}\n// versão anterior\n`,
    });
  });
  return {
    installed: () => installed,
    unroute: () => context.unroute('**/sw.js'),
  };
}

/** The prompt, 'Nova versão disponível — Atualizar' (the alert's text with its button). */
export function updatePrompt(page: Page): Locator {
  return page.getByRole('alert').filter({ hasText: 'Nova versão disponível' });
}

export async function expectUpdatePrompt(page: Page): Promise<Locator> {
  const prompt = updatePrompt(page);
  await expect(prompt).toBeVisible({ timeout: 30_000 });
  await expect(prompt).toHaveText('Nova versão disponível — Atualizar');
  return prompt;
}

/**
 * The app learnt of the new version: it fetched the prompt's code, which it does then, before it decides whether
 * to show it (the page's resource timing, which counts what its worker served too).
 */
export async function expectAppKnowsOfUpdate(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .some((entry) => /\/assets\/UpdateSnackbar-[^/]+\.js$/.test(entry.name)),
      ),
    )
    .toBe(true);
}

/** Whether a new worker is installed and waiting. */
export async function workerWaiting(page: Page): Promise<boolean> {
  return page.evaluate(
    async () => ((await navigator.serviceWorker.getRegistration())?.waiting ?? null) !== null,
  );
}

/** The registration's active worker controls the page and none waits: the page runs the newest version. */
export async function expectNewestControls(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        const controller = navigator.serviceWorker.controller;
        return (
          registration !== undefined &&
          registration.waiting === null &&
          registration.installing === null &&
          controller !== null &&
          controller === registration.active
        );
      }),
    )
    .toBe(true);
}

/** Online, the app looks for a new version (as its hourly check does) and the browser installs it. */
export async function findNewVersion(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await (await navigator.serviceWorker.getRegistration())?.update();
  });
  await expect.poll(() => workerWaiting(page), { timeout: 30_000 }).toBe(true);
}

/**
 * A mark on the page's window, which only a reload (or a navigation to another document) erases; and the count
 * of the page's loads from now on.
 */
export async function markPage(page: Page): Promise<{ loads: () => number; marked: () => Promise<boolean> }> {
  let loads = 0;
  page.on('load', () => (loads += 1));
  await page.evaluate(() => {
    window.novusMarca = 'sem recarregar';
  });
  return {
    loads: () => loads,
    marked: () => page.evaluate(() => window.novusMarca === 'sem recarregar'),
  };
}

/** Where a screenshot of e2e/screenshots goes (screens.ts's `screenshot` takes the full page). */
export function screenshotPath(name: string): string {
  return path.join(import.meta.dirname, '..', 'screenshots', `${name}.png`);
}

declare global {
  interface Window {
    /** SKIP_WAITING messages this page posted to a service worker (countSkipWaiting). */
    novusSkipWaiting?: number;
  }
}

/** Counts, from the page's first script on, the SKIP_WAITING messages it posts to a service worker. */
export async function countSkipWaiting(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    window.novusSkipWaiting = 0;
    const post = ServiceWorker.prototype.postMessage;
    ServiceWorker.prototype.postMessage = function (this: ServiceWorker, ...args: unknown[]) {
      const [message] = args as [{ type?: string } | undefined];
      if (message?.type === 'SKIP_WAITING') window.novusSkipWaiting = (window.novusSkipWaiting ?? 0) + 1;
      return (post as (...rest: unknown[]) => void).apply(this, args);
    } as ServiceWorker['postMessage'];
  });
}

/**
 * 'Atualizar' pressed while a new worker waits, and the page reloaded into it. Chromium under Playwright sometimes
 * never hands the page's SKIP_WAITING to the waiting worker (1 run in 5 of the two-tab journey: the page posted it
 * again and again, the worker stayed 'installed', and the same skipWaiting() called inside that worker activated it
 * at once). The journey checks what is the app's to do — it asked the waiting worker to take over, and it reloads
 * once the worker activates — and, only when the message was posted but not acted on within 15 s, has the worker
 * run what the message asks, noting it in the report.
 */
export async function pressAtualizar(page: Page, prompt: Locator): Promise<void> {
  const reloaded = page.waitForEvent('load', { timeout: 120_000 });
  await prompt.getByRole('button', { name: 'Atualizar' }).click();
  const settled = await Promise.race([
    reloaded.then(() => true),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), 15_000)),
  ]);
  if (settled) return;
  expect(await page.evaluate(() => window.novusSkipWaiting ?? 0)).toBeGreaterThan(0);
  for (const worker of page.context().serviceWorkers()) {
    await worker.evaluate(async () => {
      const scope = self as unknown as { serviceWorker: ServiceWorker; skipWaiting: () => Promise<void> };
      if (scope.serviceWorker.state === 'installed') await scope.skipWaiting();
    });
  }
  test.info().annotations.push({
    type: 'chromium',
    description: 'SKIP_WAITING posted by the page but not acted on in 15 s: skipWaiting() run in the worker',
  });
  await reloaded;
}
