// The home's 24-hour warning: strictly more than 24 hours since the oldest pending record of any flow.
import { describe, expect, it } from 'vitest';
import { hasOldPending, PENDING_OLD_MS, PENDING_OLD_TEXT } from '../src/offline/pending-age';

const NOW = 1_790_000_000_000;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('records waiting more than 24 hours', () => {
  it('warns after 24 hours, not at 24 hours', () => {
    expect(PENDING_OLD_MS).toBe(24 * HOUR);
    expect(hasOldPending([NOW - 24 * HOUR], NOW)).toBe(false);
    expect(hasOldPending([NOW - 24 * HOUR - MINUTE], NOW)).toBe(true);
    expect(hasOldPending([NOW - 24 * HOUR - 1], NOW)).toBe(true);
    expect(hasOldPending([NOW - HOUR], NOW)).toBe(false);
  });

  it('does not warn with nothing pending', () => {
    expect(hasOldPending([], NOW)).toBe(false);
    expect(hasOldPending([null, null], NOW)).toBe(false);
  });

  it('looks at every flow: one old flow is enough', () => {
    expect(hasOldPending([null, NOW - HOUR, NOW - 25 * HOUR], NOW)).toBe(true);
    expect(hasOldPending([NOW - 2 * HOUR, null, NOW - 23 * HOUR], NOW)).toBe(false);
  });

  it('reads banners cached by an older version, which lack the oldest, as none', () => {
    expect(hasOldPending([undefined], NOW)).toBe(false);
    expect(hasOldPending([undefined, NOW - 25 * HOUR], NOW)).toBe(true);
  });

  it('never warns for a record dated after the phone clock (a clock set back)', () => {
    expect(hasOldPending([NOW + 30 * HOUR], NOW)).toBe(false);
  });

  it('says it in the technician words', () => {
    expect(PENDING_OLD_TEXT).toBe('Há registros não sincronizados há mais de 24 horas');
  });
});
