// Imported first by main.tsx, so on a screen that writes or syncs (a wizard, Projetos, a record opened by its address)
// the device's code (Dexie, the registry, zod) starts downloading before React and MUI are even evaluated. Not on the
// login page nor on the home: the home reads what it shows with IndexedDB itself (offline/local-reader.ts), and a first
// visit on a slow link (or Lighthouse) counts every byte it loads (issue 41). There the device's code comes with
// the first tap that needs it (Sincronizar, Compactar Imagens) or the next screen; the service worker holds it offline.
import type { Device } from '../offline/device';

let loading: Promise<Device> | undefined;

export function loadDevice(): Promise<Device> {
  loading ??= import('../offline/device').then((m) => m.createDevice());
  return loading;
}

/** The first pages that show without the device's code. */
function withoutDevice(pathname: string): boolean {
  return pathname === '/' || pathname.startsWith('/login');
}

if (!withoutDevice(window.location.pathname)) void loadDevice();
