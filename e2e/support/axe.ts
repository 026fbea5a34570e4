import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export interface AccessibleOptions {
  /**
   * Also runs axe's `color-contrast-enhanced` (WCAG AAA: 7:1 for text, 4.5:1 for large text), off in axe's default
   * run, and fails on any violation of it whatever its impact. For the technician's 'Alto contraste' (issue 26).
   */
  enhancedContrast?: boolean;
}

const ENHANCED_CONTRAST = 'color-contrast-enhanced';

/** Fails on serious or critical accessibility violations of the page as it is now. */
export async function expectAccessible(
  page: Page,
  screen: string,
  { enhancedContrast = false }: AccessibleOptions = {},
): Promise<void> {
  // Colour contrast measured mid-transition is noise; wait briefly for the page to settle, and analyse anyway after.
  await page
    .waitForFunction(
      () => document.getAnimations().every((animation) => animation.playState !== 'running'),
      null,
      {
        timeout: 2_000,
      },
    )
    .catch(() => undefined);
  const builder = new AxeBuilder({ page });
  // an enabled rule runs whatever the tags below (axe's ruleShouldRun); options() before withTags, which adds to it
  if (enhancedContrast) builder.options({ rules: { [ENHANCED_CONTRAST]: { enabled: true } } });
  const results = await builder
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const blocking = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || v.id === ENHANCED_CONTRAST)
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(blocking, `accessibility violations on ${screen}`).toEqual([]);
}

/**
 * The page's `color-contrast-enhanced` violations alone, one line each: a spec can show the rule really runs (the
 * normal theme fails it) before it trusts a clean run of expectAccessible with enhancedContrast.
 */
export async function enhancedContrastViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withRules([ENHANCED_CONTRAST]).analyze();
  return results.violations.flatMap((v) =>
    v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
  );
}
