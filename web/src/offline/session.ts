// The session claims kept on the device: the auth cookie is HttpOnly, and a technician
// must reach the home screen offline for weeks, so the claims from login live here.
// The store is on the first page's path: it reads its own JSON with a type guard, not with zod (api/auth.ts parses
// the server's answer with the schema).
import type { SessionClaims } from '@novus/domain/auth';

export const SESSION_KEY = 'novus.session';

export interface Session extends SessionClaims {
  /** Expiry in epoch seconds, as the server's token has it. */
  exp: number;
}

type Listener = () => void;

export class SessionStore {
  private readonly storage: Storage;
  private readonly now: () => number;
  private readonly listeners = new Set<Listener>();
  private cachedRaw: string | null = null;
  private cachedSession: Session | null = null;

  constructor(storage: Storage, now: () => number = Date.now) {
    this.storage = storage;
    this.now = now;
  }

  /** The stored session if it exists and has not expired; stable between calls while unchanged. */
  get = (): Session | null => {
    const raw = this.storage.getItem(SESSION_KEY);
    if (raw !== this.cachedRaw) {
      this.cachedRaw = raw;
      this.cachedSession = parse(raw);
    }
    const session = this.cachedSession;
    if (session === null || session.exp * 1000 <= this.now()) return null;
    return session;
  };

  set(session: Session): void {
    this.storage.setItem(SESSION_KEY, JSON.stringify(session));
    this.notify();
  }

  clear(): void {
    this.storage.removeItem(SESSION_KEY);
    this.notify();
  }

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Another tab logged in or out. */
  notify(): void {
    for (const listener of this.listeners) listener();
  }
}

function parse(raw: string | null): Session | null {
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return isSession(value) ? value : null;
  } catch {
    return null;
  }
}

const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

function isSession(value: unknown): value is Session {
  if (typeof value !== 'object' || value === null) return false;
  const { nome, roles, zonas, exp } = value as Record<string, unknown>;
  return typeof nome === 'string' && isStrings(roles) && isStrings(zonas) && typeof exp === 'number';
}
