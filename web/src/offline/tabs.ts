// One sync or compression at a time across the app's tabs and the installed app (issue 25). Two tabs each running
// the sync would send the same records at once; a Web Lock elects the one that works, a BroadcastChannel tells the
// others what it is doing and how it ended, so a second tab's 'Sincronizar' shows the first's sync and its end.
// Where Web Locks are missing, a lease in localStorage stands in (renewed while held, expired when a tab dies).
import type { WorkTracker } from './work';

export type FieldWorkKind = 'compress' | 'sync';

/** How a sync or a compression ended, as the home's status line says it. */
export interface FieldWorkEnd {
  status: string | null;
  error: boolean;
}

export type TabMessage =
  | { type: 'begin'; kind: FieldWorkKind; tab: string }
  | { type: 'status'; kind: FieldWorkKind; text: string; tab: string }
  | ({ type: 'end'; kind: FieldWorkKind; tab: string } & FieldWorkEnd);

/** What another tab is doing, as this tab shows it: null when no other tab works. */
export interface RemoteWork {
  kind: FieldWorkKind;
  /** The other tab's last status line. */
  status: string;
}

export const TAB_TEXTS = {
  sync: 'Sincronização em andamento em outra aba do Novus. Aguarde o fim.',
  compress: 'Compactação em andamento em outra aba do Novus. Aguarde o fim.',
} as const;

/** The lock every tab asks for before a sync or a compression. */
export interface FieldWorkLock {
  /** Runs `work` holding the lock; null (and `work` not run) when another tab holds it. */
  tryRun<T>(work: () => Promise<T>): Promise<{ value: T } | null>;
  /** Resolves once no tab holds the lock (at once when none does). */
  whenFree(): Promise<void>;
}

const LOCK_NAME = 'novus-trabalho-de-campo';

/** The browser's Web Locks: released by the browser itself when the tab holding it closes or crashes. */
export class WebLocksLock implements FieldWorkLock {
  constructor(private readonly locks: LockManager) {}

  async tryRun<T>(work: () => Promise<T>): Promise<{ value: T } | null> {
    return this.locks.request(LOCK_NAME, { ifAvailable: true }, async (lock) =>
      lock === null ? null : { value: await work() },
    );
  }

  async whenFree(): Promise<void> {
    await this.locks.request(LOCK_NAME, { mode: 'shared' }, () => undefined);
  }
}

interface Lease {
  owner: string;
  until: number;
}

/**
 * A lease in localStorage, where Web Locks are missing: taken when absent or expired, renewed while held, so a tab
 * that dies lets go within LEASE_MS. Not atomic across tabs; a race only costs a second sync, which is idempotent.
 */
export class StorageLeaseLock implements FieldWorkLock {
  static readonly KEY = 'novus.trabalhoDeCampo';
  static readonly LEASE_MS = 10_000;

  constructor(
    private readonly storage: Storage,
    private readonly owner: string,
    private readonly now: () => number = Date.now,
    private readonly pollMs = 500,
  ) {}

  private read(): Lease | null {
    try {
      const value: unknown = JSON.parse(this.storage.getItem(StorageLeaseLock.KEY) ?? 'null');
      if (typeof value !== 'object' || value === null) return null;
      const { owner, until } = value as Partial<Lease>;
      return typeof owner === 'string' && typeof until === 'number' ? { owner, until } : null;
    } catch {
      return null;
    }
  }

  private held(): boolean {
    const lease = this.read();
    return lease !== null && lease.until > this.now();
  }

  private write(): void {
    const lease: Lease = { owner: this.owner, until: this.now() + StorageLeaseLock.LEASE_MS };
    this.storage.setItem(StorageLeaseLock.KEY, JSON.stringify(lease));
  }

  async tryRun<T>(work: () => Promise<T>): Promise<{ value: T } | null> {
    if (this.held()) return null;
    this.write();
    const renew = setInterval(() => this.write(), StorageLeaseLock.LEASE_MS / 3);
    try {
      return { value: await work() };
    } finally {
      clearInterval(renew);
      if (this.read()?.owner === this.owner) this.storage.removeItem(StorageLeaseLock.KEY);
    }
  }

  async whenFree(): Promise<void> {
    while (this.held()) await new Promise((resolve) => setTimeout(resolve, this.pollMs));
  }
}

type Listener = () => void;

/** The channel between tabs; BroadcastChannel in the app, a fake in tests. */
export interface TabChannel {
  post(message: TabMessage): void;
  listen(onMessage: (message: TabMessage) => void): void;
}

export function broadcastChannel(name = 'novus-abas'): TabChannel | null {
  if (typeof BroadcastChannel === 'undefined') return null;
  const channel = new BroadcastChannel(name);
  return {
    post: (message) => channel.postMessage(message),
    listen: (onMessage) => {
      channel.onmessage = (event: MessageEvent<TabMessage>) => onMessage(event.data);
    },
  };
}

/** How long a tab that lost the race waits for the winner's last word after the lock is free. */
const END_GRACE_MS = 1_000;

/**
 * This tab's side of the coordination: runs field work under the lock, tells the other tabs, and follows theirs.
 * While another tab works, this tab's WorkTracker is busy too: an update here would reload under their sync.
 */
export class TabCoordinator {
  readonly tab = crypto.randomUUID();
  private remote: RemoteWork | null = null;
  private lastEnd: FieldWorkEnd | null = null;
  private endWaiters = new Set<(end: FieldWorkEnd) => void>();
  private endRemoteWork: (() => void) | null = null;
  private readonly listeners = new Set<Listener>();

  constructor(
    private readonly lock: FieldWorkLock,
    private readonly channel: TabChannel | null,
    private readonly work: WorkTracker,
  ) {
    channel?.listen((message) => this.receive(message));
  }

  /** The app's: Web Locks when the browser has them, else the localStorage lease. */
  static forBrowser(work: WorkTracker): TabCoordinator {
    const lock =
      typeof navigator !== 'undefined' && 'locks' in navigator && navigator.locks
        ? new WebLocksLock(navigator.locks)
        : new StorageLeaseLock(window.localStorage, crypto.randomUUID());
    return new TabCoordinator(lock, broadcastChannel(), work);
  }

  /**
   * Runs `work` as this device's only sync or compression. When another tab is at it, `work` does not run: the
   * answer is that tab's end (its status line), once it ends; `onStatus` hears its progress meanwhile.
   */
  async run(
    kind: FieldWorkKind,
    work: (onStatus: (text: string) => void) => Promise<FieldWorkEnd>,
    onStatus: (text: string) => void,
  ): Promise<FieldWorkEnd & { elsewhere: boolean }> {
    const ran = await this.lock.tryRun(async () => {
      this.channel?.post({ type: 'begin', kind, tab: this.tab });
      let end: FieldWorkEnd = { status: null, error: true };
      try {
        end = await work((text) => {
          this.channel?.post({ type: 'status', kind, text, tab: this.tab });
          onStatus(text);
        });
        return end;
      } finally {
        // Before the lock is let go: a tab waiting on it has the end when it gets the lock.
        this.channel?.post({ type: 'end', kind, tab: this.tab, ...end });
      }
    });
    if (ran !== null) return { ...ran.value, elsewhere: false };
    onStatus(this.remote?.status ?? TAB_TEXTS[kind]);
    return { ...(await this.followRemote(kind, onStatus)), elsewhere: true };
  }

  /** Waits for the other tab's work to end and answers its last word. */
  private async followRemote(kind: FieldWorkKind, onStatus: (text: string) => void): Promise<FieldWorkEnd> {
    const unsubscribe = this.subscribe(() => {
      if (this.remote !== null) onStatus(this.remote.status);
    });
    const ended = new Promise<FieldWorkEnd>((resolve) => this.endWaiters.add(resolve));
    try {
      await this.lock.whenFree();
      const grace = new Promise<FieldWorkEnd>((resolve) =>
        setTimeout(
          () => resolve(this.lastEnd ?? { status: TAB_DONE_TEXT[kind], error: false }),
          END_GRACE_MS,
        ),
      );
      return await Promise.race([ended, grace]);
    } finally {
      unsubscribe();
    }
  }

  private receive(message: TabMessage): void {
    if (message.tab === this.tab) return;
    if (message.type === 'begin') {
      this.lastEnd = null;
      this.setRemote({ kind: message.kind, status: TAB_TEXTS[message.kind] });
      // A tab that dies mid-sync never says 'end': the lock, let go by the browser, says it instead.
      void this.lock.whenFree().then(() => {
        if (this.remote !== null && this.remote.kind === message.kind) this.setRemote(null);
      });
    } else if (message.type === 'status') {
      this.setRemote({ kind: message.kind, status: `${TAB_TEXTS[message.kind]} ${message.text}` });
    } else {
      const end: FieldWorkEnd = { status: message.status, error: message.error };
      this.lastEnd = end;
      for (const waiter of this.endWaiters) waiter(end);
      this.endWaiters.clear();
      this.setRemote(null);
    }
  }

  private setRemote(remote: RemoteWork | null): void {
    if (remote !== null && this.endRemoteWork === null) this.endRemoteWork = this.work.begin('outra-aba');
    if (remote === null) {
      this.endRemoteWork?.();
      this.endRemoteWork = null;
    }
    this.remote = remote;
    for (const listener of this.listeners) listener();
  }

  /** What another tab is doing now (for useSyncExternalStore). */
  getRemote = (): RemoteWork | null => this.remote;

  /** The end of the last work another tab finished, as it said it. */
  getLastEnd = (): FieldWorkEnd | null => this.lastEnd;

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

/** What a tab says when the other's end was not heard (its channel missing): the work ended there. */
const TAB_DONE_TEXT: Record<FieldWorkKind, string> = {
  sync: 'A sincronização da outra aba terminou. Confira os pendentes.',
  compress: 'A compactação da outra aba terminou.',
};
