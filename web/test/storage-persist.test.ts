// Persistent storage for the storage panel: asked only while not granted, and the browser's answer as given.
import { describe, expect, it } from 'vitest';
import { requestPersistentStorage } from '../src/offline/storage';

/** The browser's StorageManager, with what it answers and how often persist() was asked. */
function storageManager({ persisted, grants }: { persisted: boolean; grants: boolean }) {
  const calls = { persist: 0 };
  const manager: Pick<StorageManager, 'persist' | 'persisted'> = {
    persisted: () => Promise.resolve(persisted),
    persist: () => {
      calls.persist += 1;
      return Promise.resolve(grants);
    },
  };
  // only persist and persisted are read (requestPersistentStorage)
  return { manager: manager as StorageManager, calls };
}

describe('asking for persistent storage', () => {
  it('does not ask again when the browser already granted it', async () => {
    const { manager, calls } = storageManager({ persisted: true, grants: false });
    expect(await requestPersistentStorage(manager)).toBe(true);
    expect(calls.persist).toBe(0);
  });

  it('asks, and reports what the browser decided', async () => {
    const granted = storageManager({ persisted: false, grants: true });
    expect(await requestPersistentStorage(granted.manager)).toBe(true);
    expect(granted.calls.persist).toBe(1);
    const refused = storageManager({ persisted: false, grants: false });
    expect(await requestPersistentStorage(refused.manager)).toBe(false);
  });
});
