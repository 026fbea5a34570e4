// Browser benchmarks (`npm run bench`): the same server and browser as the journeys, run one at a time.
import { defineConfig } from '@playwright/test';
import base from './playwright.config';

export default defineConfig({
  ...base,
  testDir: './bench',
  testMatch: '**/*.bench.ts',
  retries: 0,
  timeout: 600_000,
  // the benches measure the production threshold: 100,000 points are the browser's to cluster
  webServer: base.webServer && !Array.isArray(base.webServer)
    ? { ...base.webServer, env: { ...base.webServer.env, MAPA_PONTOS_NO_NAVEGADOR: '' } }
    : base.webServer,
});
