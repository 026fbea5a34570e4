// Browser benchmarks (`npm run bench`): the same server and browser as the journeys, run one at a time.
import { defineConfig } from '@playwright/test';
import base from './playwright.config';

export default defineConfig({
  ...base,
  testDir: './bench',
  testMatch: '**/*.bench.ts',
  retries: 0,
  timeout: 600_000,
});
