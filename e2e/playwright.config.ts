// End-to-end journeys: the built web app served by the real server on a fresh data directory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { ADMIN, BASE_URL, PORT } from './support/env';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-e2e-'));

export default defineConfig({
  testDir: './tests',
  // Files run side by side (each makes its own clients, projects and users); tests inside a file run in order.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  fullyParallel: false,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: 'list',
  // Two files side by side on two cores: a long journey gets the time it needs when its neighbour is busy.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: BASE_URL,
    locale: 'pt-BR',
    // The app then drops its transitions (web/src/app/theme.ts), so axe never measures a colour mid-fade.
    reducedMotion: 'reduce',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: 'node --import tsx ../server/src/main.ts',
    url: `${BASE_URL}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      // The journeys run on the embedded default (PGlite in a fresh directory), even where CI sets DATABASE_URL.
      DATABASE_URL: '',
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_LOGIN: ADMIN.login,
      ADMIN_PASSWORD: ADMIN.password,
      // E2E_WEB_DIST: another build, so a run does not race a rebuild of web/dist.
      WEB_DIST: process.env.E2E_WEB_DIST ?? path.resolve(import.meta.dirname, '../web/dist'),
      // No tile ever comes from the internet: a missing local tile is a 404, and the map still draws its shapes.
      TILE_URL_STREET: '/tiles/{z}/{x}/{y}.png',
      TILE_URL_SATELLITE: '/tiles/{z}/{x}/{y}.png',
      TILES_DIR: path.resolve(import.meta.dirname, 'fixtures/tiles'),
      // The supervisor map clusters on the server past this many points (150,000 in production), so a project of
      // a few thousand proves that path (backoffice-supervisor-grade.spec.ts).
      MAPA_PONTOS_NO_NAVEGADOR: '1500',
    },
  },
});
