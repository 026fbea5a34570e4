// The fault campaign (support/fault-campaign.ts) as part of the suite: FAULT_RUNS runs (30 by default; `npm run
// test:faults` asks for 1,000) from FAULT_SEED, on PGlite and, when DATABASE_URL is set, on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCounts, runCampaign } from './support/fault-campaign.ts';
import { createTestContext, type TestContext } from './support/test-app.ts';

const RUNS = Number(process.env.FAULT_RUNS ?? 30);
const SEED = Number(process.env.FAULT_SEED ?? 20261124);

describe('fault campaign: the real sync engine against the real server over a faulty network', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => ctx.close());

  it(
    `${RUNS} seeded runs: every record on the server exactly once, photos byte-identical, nothing pending`,
    async () => {
      const counts = await runCampaign({ ctx, runs: RUNS, seed: SEED, log: (line) => console.log(line) });
      console.log(formatCounts(counts, SEED, process.env.NOVUS_TEST_DB ?? 'pglite'));
      expect(counts.problems).toEqual([]);
      expect(counts.runs).toBe(RUNS);
      expect(counts.lost).toBe(0);
      expect(counts.duplicated).toBe(0);
      expect(counts.photoMismatches).toBe(0);
      expect(counts.pendingLeft).toBe(0);
      // The campaign did meet faults of every kind (else it proves little).
      if (RUNS >= 30) for (const n of Object.values(counts.faults)) expect(n).toBeGreaterThan(0);
    },
    60_000 + RUNS * 3_000,
  );
});
