// One sync at a time across tabs (issue 25): the tab that gets the lock works, the other follows it and ends with
// its word; the localStorage lease stands in where Web Locks are missing.
import { describe, expect, it } from 'vitest';
import {
  StorageLeaseLock,
  TAB_TEXTS,
  TabCoordinator,
  type FieldWorkLock,
  type TabChannel,
  type TabMessage,
} from '../src/offline/tabs';
import { WorkTracker } from '../src/offline/work';
import { MemoryStorage } from './support/memory-storage';

/** Tabs of one browser: each message reaches every other tab, a task later (as BroadcastChannel delivers). */
function channels(count: number): TabChannel[] {
  const listeners: ((message: TabMessage) => void)[] = [];
  return Array.from({ length: count }, (_, index) => ({
    post: (message) => {
      for (const [other, listener] of listeners.entries()) {
        if (other !== index) setTimeout(() => listener(message), 0);
      }
    },
    listen: (onMessage) => {
      listeners[index] = onMessage;
    },
  }));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function twoTabs(locks: [FieldWorkLock, FieldWorkLock]) {
  const [a, b] = channels(2);
  const works = [new WorkTracker(), new WorkTracker()] as const;
  return {
    works,
    tabs: [
      new TabCoordinator(locks[0], a ?? null, works[0]),
      new TabCoordinator(locks[1], b ?? null, works[1]),
    ],
  };
}

describe('TabCoordinator', () => {
  it('two tabs pressing at once: one sync runs, the other shows it and ends with its status', async () => {
    const storage = new MemoryStorage();
    const { tabs, works } = twoTabs([
      new StorageLeaseLock(storage, 'a', Date.now, 5),
      new StorageLeaseLock(storage, 'b', Date.now, 5),
    ]);
    const [a, b] = tabs as [TabCoordinator, TabCoordinator];
    let runs = 0;
    const sync = async (onStatus: (text: string) => void) => {
      runs += 1;
      onStatus('Sincronizando unidades');
      await sleep(40);
      return { status: 'Sincronizacao concluida', error: false };
    };
    const seenByB: string[] = [];
    const [endA, endB] = await Promise.all([
      a.run('sync', sync, () => undefined),
      (async () => {
        await sleep(5);
        return b.run('sync', sync, (text) => seenByB.push(text));
      })(),
    ]);
    expect(runs).toBe(1);
    expect(endA).toEqual({ status: 'Sincronizacao concluida', error: false, elsewhere: false });
    expect(endB).toEqual({ status: 'Sincronizacao concluida', error: false, elsewhere: true });
    expect(seenByB[0]).toMatch(/^Sincronização em andamento em outra aba do Novus/);
    // B's tracker was busy while A synced (an update waits for it), and is idle again.
    expect(works[1].isBusy()).toBe(false);
    expect(b.getRemote()).toBeNull();
  });

  it('a failed sync elsewhere ends the follower with the same error', async () => {
    const storage = new MemoryStorage();
    const { tabs } = twoTabs([
      new StorageLeaseLock(storage, 'a', Date.now, 5),
      new StorageLeaseLock(storage, 'b', Date.now, 5),
    ]);
    const [a, b] = tabs as [TabCoordinator, TabCoordinator];
    const failing = async () => {
      await sleep(30);
      return { status: 'Sem conexão — Ocorreu um erro na sincronizacao', error: true };
    };
    const first = a.run('sync', failing, () => undefined);
    await sleep(5);
    const second = await b.run('sync', failing, () => undefined);
    expect(second).toMatchObject({ status: 'Sem conexão — Ocorreu um erro na sincronizacao', error: true });
    expect((await first).elsewhere).toBe(false);
  });

  it('a tab that only watches shows the other tab busy, then free', async () => {
    const storage = new MemoryStorage();
    const { tabs, works } = twoTabs([
      new StorageLeaseLock(storage, 'a', Date.now, 5),
      new StorageLeaseLock(storage, 'b', Date.now, 5),
    ]);
    const [a, b] = tabs as [TabCoordinator, TabCoordinator];
    const running = a.run(
      'compress',
      async (onStatus) => {
        onStatus('3 de 9');
        await sleep(40);
        return { status: 'Compactacao concluida com sucesso', error: false };
      },
      () => undefined,
    );
    await sleep(15);
    expect(b.getRemote()).toEqual({ kind: 'compress', status: `${TAB_TEXTS.compress} 3 de 9` });
    expect(works[1].isBusy()).toBe(true);
    await running;
    await sleep(10);
    expect(b.getRemote()).toBeNull();
    expect(b.getLastEnd()).toEqual({ status: 'Compactacao concluida com sucesso', error: false });
    expect(works[1].isBusy()).toBe(false);
  });
});

describe('StorageLeaseLock', () => {
  it('is taken by one tab at a time and let go after the work', async () => {
    const storage = new MemoryStorage();
    const a = new StorageLeaseLock(storage, 'a');
    const b = new StorageLeaseLock(storage, 'b');
    const inside = await a.tryRun(async () => b.tryRun(async () => 'b ran'));
    expect(inside).toEqual({ value: null });
    expect(await b.tryRun(async () => 'b ran')).toEqual({ value: 'b ran' });
    expect(storage.getItem(StorageLeaseLock.KEY)).toBeNull();
  });

  it('a lease of a tab that died expires', async () => {
    const storage = new MemoryStorage();
    let now = 1_000_000;
    storage.setItem(StorageLeaseLock.KEY, JSON.stringify({ owner: 'morta', until: now + 10_000 }));
    const b = new StorageLeaseLock(storage, 'b', () => now, 1);
    expect(await b.tryRun(async () => 'ran')).toBeNull();
    now += 10_001;
    await b.whenFree();
    expect(await b.tryRun(async () => 'ran')).toEqual({ value: 'ran' });
  });
});
