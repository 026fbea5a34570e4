// Imported first by main.tsx, so the device's code (Dexie, the registry, zod) starts downloading before React and
// MUI are even evaluated: the home's figures arrive sooner, and nothing waits for them to draw.
import type { Device } from '../offline/device';

export const deviceLoading: Promise<Device> = import('../offline/device').then((m) => m.createDevice());
