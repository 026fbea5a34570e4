import { describe, expect, it } from 'vitest';
import { destinationFor } from '@novus/domain/entrada';

describe('where login goes next', () => {
  it('goes to /{target}, or / without one', () => {
    expect(destinationFor('backoffice')).toBe('/backoffice');
    expect(destinationFor(null)).toBe('/');
    expect(destinationFor('')).toBe('/');
  });

  it('never leaves the app', () => {
    expect(destinationFor('//evil.example')).toBe('/');
    expect(destinationFor('https://evil.example')).toBe('/');
  });
});
