import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { uuidv7 } from '../src/ids.ts';

describe('uuidv7', () => {
  it('makes RFC 9562 version 7 ids that the server accepts as UUIDs', () => {
    const id = uuidv7();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(z.uuid().safeParse(id).success).toBe(true);
  });

  it('carries the creation time in its first 48 bits, so ids sort by time', () => {
    const zeros = (bytes: Uint8Array) => bytes.fill(0);
    expect(uuidv7(0x0123456789ab, zeros)).toBe('01234567-89ab-7000-8000-000000000000');
    const earlier = uuidv7(1_700_000_000_000);
    const later = uuidv7(1_700_000_000_001);
    expect(earlier < later).toBe(true);
  });

  it('does not repeat', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => uuidv7(1_700_000_000_000)));
    expect(ids.size).toBe(1000);
  });
});
