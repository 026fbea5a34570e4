// Imported first by main.tsx, so the device's code (Dexie, the registry, zod) starts downloading before React and
// MUI are even evaluated: the home's figures arrive sooner, and nothing waits for them to draw. Not on the login
// page: nothing there needs the device, and a first visit on a slow link (or Lighthouse) counts every byte it loads
// (issue 41); the device's code comes with the first screen after 'Entrar' (the service worker holds it offline).
import type { Device } from '../offline/device';

let loading: Promise<Device> | undefined;

export function loadDevice(): Promise<Device> {
  loading ??= import('../offline/device').then((m) => m.createDevice());
  return loading;
}

if (!window.location.pathname.startsWith('/login')) void loadDevice();
