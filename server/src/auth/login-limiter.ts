// Counts failed logins per login and per address in a sliding window, to slow down password guessing.
export interface LimiterOptions {
  maxPerLogin: number;
  maxPerAddress: number;
  windowMs: number;
}

export const DEFAULT_LIMITS: LimiterOptions = { maxPerLogin: 5, maxPerAddress: 20, windowMs: 15 * 60 * 1000 };

export class LoginLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly options: LimiterOptions = DEFAULT_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  isBlocked(login: string, address: string): boolean {
    return (
      this.recent(`login:${login.toLowerCase()}`) >= this.options.maxPerLogin ||
      this.recent(`addr:${address}`) >= this.options.maxPerAddress
    );
  }

  recordFailure(login: string, address: string): void {
    for (const key of [`login:${login.toLowerCase()}`, `addr:${address}`]) {
      const list = this.failures.get(key) ?? [];
      list.push(this.now());
      this.failures.set(key, list);
    }
  }

  recordSuccess(login: string): void {
    this.failures.delete(`login:${login.toLowerCase()}`);
  }

  private recent(key: string): number {
    const since = this.now() - this.options.windowMs;
    const list = (this.failures.get(key) ?? []).filter((at) => at > since);
    if (list.length === 0) this.failures.delete(key);
    else this.failures.set(key, list);
    return list.length;
  }
}
