import { describe, expect, it } from 'vitest';
import { MemoryStorage } from './support/memory-storage';
import { SESSION_KEY, SessionStore } from '../src/offline/session';

const NOW = Date.UTC(2026, 10, 22, 12);
const claims = { nome: 'Ana Souza', roles: ['tecnico'], zonas: ['z1'], exp: NOW / 1000 + 3600 };

describe('the device session', () => {
  it('exists while exp is in the future and is gone after it', () => {
    let now = NOW;
    const store = new SessionStore(new MemoryStorage(), () => now);
    expect(store.get()).toBeNull();
    store.set(claims);
    expect(store.get()).toEqual(claims);
    now = NOW + 3600 * 1000;
    expect(store.get()).toBeNull();
  });

  it('returns the same object while unchanged, as useSyncExternalStore requires', () => {
    const store = new SessionStore(new MemoryStorage(), () => NOW);
    store.set(claims);
    expect(store.get()).toBe(store.get());
  });

  it('ignores a malformed entry and notifies listeners on clear', () => {
    const storage = new MemoryStorage();
    storage.setItem(SESSION_KEY, '{"nome":1}');
    const store = new SessionStore(storage, () => NOW);
    expect(store.get()).toBeNull();
    let calls = 0;
    store.subscribe(() => calls++);
    store.set(claims);
    store.clear();
    expect(calls).toBe(2);
    expect(storage.getItem(SESSION_KEY)).toBeNull();
  });

  it('takes only a whole session: names, roles and zones as strings, a numeric expiry', () => {
    const storage = new MemoryStorage();
    const store = new SessionStore(storage, () => NOW);
    for (const broken of [
      { ...claims, roles: 'tecnico' },
      { ...claims, zonas: [1] },
      { ...claims, exp: String(claims.exp) },
      { roles: claims.roles, zonas: claims.zonas, exp: claims.exp },
      [claims],
      'texto',
    ]) {
      storage.setItem(SESSION_KEY, JSON.stringify(broken));
      expect(store.get(), JSON.stringify(broken)).toBeNull();
    }
    storage.setItem(SESSION_KEY, JSON.stringify(claims));
    expect(store.get()).toEqual(claims);
  });
});
