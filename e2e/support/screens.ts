import path from 'node:path';
import type { Page } from '@playwright/test';

export const PHONE = { width: 390, height: 844 } as const;
export const DESKTOP = { width: 1280, height: 800 } as const;

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({
    path: path.join(import.meta.dirname, '..', 'screenshots', `${name}.png`),
    fullPage: true,
  });
}
