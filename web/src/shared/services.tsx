// The app's long-lived objects, created once in main.tsx and handed down by context so tests and screens never
// reach for module state. Two parts: the shell (session, API client, work tracker, the database's reader), there from
// the first frame, and the device (IndexedDB through Dexie, the record store, the sync transport), loaded by the
// screens that write or sync, so the login and the home never wait for its code (issues 13 and 41).
import {
  createContext,
  use,
  useCallback,
  useContext,
  useEffect,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import type { ApiClient } from '../api/client';
import type { Device } from '../offline/device';
import type { DeviceLog } from '../offline/device-log';
import type { LocalReader } from '../offline/local-reader';
import type { TabCoordinator } from '../offline/tabs';
import type { WorkTracker } from '../offline/work';
import { SESSION_KEY, type Session, type SessionStore } from '../offline/session';

export interface Shell {
  session: SessionStore;
  api: ApiClient;
  /** Sync, compression and wizards in progress: an update waits for them. */
  work: WorkTracker;
  /** Failures on the device, for the server's log (sent now or with the next sync). */
  log: DeviceLog;
  /** One sync or compression at a time across tabs and the installed app (issue 25). */
  tabs: TabCoordinator;
  /** The device's database read without Dexie: what the home shows (issue 41). */
  reader: LocalReader;
}

export type Services = Shell & Device;

/**
 * The device's services as they load: the promise, and its value once it has one. Given as a function, the code is
 * asked for on the first `load()` (or `promise`), not before.
 */
export class DeviceLoader {
  private loading: Promise<Device> | undefined;
  private value: Device | undefined;
  private arrived: (device: Device) => void = () => undefined;
  /** Resolves once the device is loaded, by whoever asked; waiting on it never asks for the code. */
  readonly loaded = new Promise<Device>((resolve) => (this.arrived = resolve));

  constructor(private readonly source: Device | Promise<Device> | (() => Promise<Device>)) {
    if (typeof source !== 'function') this.start();
  }

  get promise(): Promise<Device> {
    return this.loading ?? this.start();
  }

  private start(): Promise<Device> {
    const { source } = this;
    const loading = Promise.resolve(typeof source === 'function' ? source() : source);
    this.loading = loading;
    if (typeof source !== 'function' && !(source instanceof Promise)) this.value = source;
    void loading.then(
      (value) => {
        this.value = value;
        this.arrived(value);
      },
      () => undefined,
    );
    return loading;
  }

  /** The device's services when they are ready (stable: a dependency of effects). */
  readonly load = (): Promise<Device> => this.promise;

  /** The device's services, or undefined while their code loads. */
  get current(): Device | undefined {
    return this.value;
  }
}

interface Context {
  shell: Shell;
  device: DeviceLoader;
}

const ServicesContext = createContext<Context | null>(null);

export function ServicesProvider({
  shell,
  device,
  children,
}: {
  shell: Shell;
  device: DeviceLoader;
  children: ReactNode;
}) {
  const { session } = shell;
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === SESSION_KEY || event.key === null) session.notify();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [session]);
  return <ServicesContext.Provider value={{ shell, device }}>{children}</ServicesContext.Provider>;
}

function useServicesContext(): Context {
  const context = useContext(ServicesContext);
  if (context === null) throw new Error('useServices outside ServicesProvider');
  return context;
}

/** Session, API client and work tracker: never waits. */
export function useShell(): Shell {
  return useServicesContext().shell;
}

/** Every service; suspends (to the nearest Suspense) while the device's code is still loading. */
export function useServices(): Services {
  const { shell, device } = useServicesContext();
  const loaded = device.current ?? use(device.promise);
  return { ...shell, ...loaded };
}

/** For screens that show before the device loads: its services when an action needs them. */
export function useDevice(): () => Promise<Device> {
  return useServicesContext().device.load;
}

/** The device once something else loaded it (the login page loads none): for what only watches it. */
export function useLoadedDevice(): Promise<Device> {
  return useServicesContext().device.loaded;
}

/** The current session, re-rendering on login and logout. */
export function useSession(): Session | null {
  const { session } = useShell();
  return useSyncExternalStore(session.subscribe, session.get);
}

/** Reports a failure on the device to the server's log with the technician's name (SPEC.md 8); never throws. */
export function useReportFailure(): (message: string, error: unknown) => void {
  const { log, session } = useShell();
  return useCallback(
    (message: string, error: unknown) =>
      void log.report({ message, tecnico: session.get()?.nome, error, url: window.location.pathname }),
    [log, session],
  );
}
