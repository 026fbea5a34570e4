// axe-core in the other engines, as support/axe.ts runs it in Chromium: the same tags, failing on serious and critical
// violations. Injected through the driver (the page's CSP does not apply to what the driver runs).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { expect } from '@playwright/test';
import type { Engine } from './engines';

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

export async function expectAccessibleIn(engine: Engine, screen: string): Promise<void> {
  // a page loaded since the last run has no axe
  const loaded = await engine.evaluate<boolean>('() => typeof window.axe !== "undefined"');
  if (!loaded) await engine.evaluate(`() => { ${AXE_SOURCE}\n return true; }`);
  const { blocking, passes } = await engine.evaluate<{ blocking: string[]; passes: number }>(
    `async (tags) => {
      const results = await window.axe.run(document, { runOnly: { type: 'tag', values: tags } });
      const blocking = results.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => v.id + ' (' + v.impact + '): ' + v.help + ' — ' + v.nodes.map((n) => n.target.join(' ')).join(', '));
      return { blocking, passes: results.passes.length };
    }`,
    TAGS,
  );
  // axe ran its rules here (a page where none ran would pass anything)
  expect(passes, `axe's rules on ${screen} (${engine.name})`).toBeGreaterThan(5);
  expect(blocking, `accessibility violations on ${screen} (${engine.name})`).toEqual([]);
}
