import { defineConfig } from 'vitest/config';

// Server integration tests run on PGlite always, and again on PostgreSQL when DATABASE_URL is set.
const serverProjects = [
  {
    test: {
      name: 'server-pglite',
      include: ['server/test/**/*.test.ts'],
      globalSetup: ['server/test/support/global-setup.ts'],
      env: { NOVUS_TEST_DB: 'pglite' },
      testTimeout: 60_000,
      hookTimeout: 120_000,
    },
  },
  ...(process.env.DATABASE_URL
    ? [
        {
          test: {
            name: 'server-postgres',
            include: ['server/test/**/*.test.ts'],
            globalSetup: ['server/test/support/global-setup.ts'],
            env: { NOVUS_TEST_DB: 'postgres' },
            testTimeout: 60_000,
            hookTimeout: 120_000,
          },
        },
      ]
    : []),
];

export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      { test: { name: 'domain', include: ['domain/test/**/*.test.ts'] } },
      { test: { name: 'web', include: ['web/test/**/*.test.ts'] } },
      ...serverProjects,
    ],
  },
});
