import { describe, expect, it } from 'vitest';
import type { Device } from '../src/offline/device';
import { DeviceLoader } from '../src/shared/services';

const device = { localStore: {}, records: {}, transport: {} } as unknown as Device;

describe("the device's services as they load", () => {
  it('are there at once when given whole, and later when given as a promise', async () => {
    expect(new DeviceLoader(device).current).toBe(device);
    let resolve: (value: Device) => void = () => undefined;
    const loader = new DeviceLoader(new Promise<Device>((r) => (resolve = r)));
    expect(loader.current).toBeUndefined();
    const load = loader.load;
    resolve(device);
    await expect(load()).resolves.toBe(device);
    expect(loader.current).toBe(device);
    expect(loader.load).toBe(load);
  });

  it('given as a function, are asked for on the first load only', async () => {
    let asked = 0;
    const loader = new DeviceLoader(() => {
      asked += 1;
      return Promise.resolve(device);
    });
    expect(asked).toBe(0);
    expect(loader.current).toBeUndefined();
    await expect(loader.load()).resolves.toBe(device);
    await expect(loader.load()).resolves.toBe(device);
    expect(asked).toBe(1);
    expect(loader.current).toBe(device);
  });

  it('keep a failed load for whoever asks, without an unhandled rejection', async () => {
    const loader = new DeviceLoader(Promise.reject(new Error('chunk perdido')));
    await expect(loader.load()).rejects.toThrow('chunk perdido');
    expect(loader.current).toBeUndefined();
  });
});
