// The app's long-lived objects (session, device database, API client), created once in main.tsx
// and handed down by context so tests and screens never reach for module state.
import { createContext, useContext, useEffect, useSyncExternalStore, type ReactNode } from 'react';
import type { ApiClient } from '../api/client';
import type { HttpSyncTransport } from '../api/sync-transport';
import type { LocalStore } from '../offline/local-store';
import type { RecordStore } from '../offline/records';
import type { WorkTracker } from '../offline/work';
import { SESSION_KEY, type Session, type SessionStore } from '../offline/session';

export interface Services {
  session: SessionStore;
  localStore: LocalStore;
  api: ApiClient;
  /** The one write path for collected records (offline/records.ts). */
  records: RecordStore;
  transport: HttpSyncTransport;
  /** Sync, compression and wizards in progress: an update waits for them. */
  work: WorkTracker;
}

const ServicesContext = createContext<Services | null>(null);

export function ServicesProvider({ services, children }: { services: Services; children: ReactNode }) {
  const { session } = services;
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === SESSION_KEY || event.key === null) session.notify();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [session]);
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>;
}

export function useServices(): Services {
  const services = useContext(ServicesContext);
  if (services === null) throw new Error('useServices outside ServicesProvider');
  return services;
}

/** The current session, re-rendering on login and logout. */
export function useSession(): Session | null {
  const { session } = useServices();
  return useSyncExternalStore(session.subscribe, session.get);
}
