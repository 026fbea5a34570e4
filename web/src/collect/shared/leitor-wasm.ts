// ZXing's reader in WebAssembly for browsers without a native BarcodeDetector (iOS Safari, Firefox). The .wasm is
// served by our own build and precached by the service worker (vite.config.ts): the package's default would fetch
// it from a CDN, which a phone offline in the field cannot reach.
import {
  BarcodeDetector,
  type BarcodeFormat,
  prepareZXingModule,
  purgeZXingModule,
} from 'barcode-detector/ponyfill';
import zxingReaderUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';
import type { DetectorDeCodigos } from './leitor';

type ZXingOverrides = NonNullable<Parameters<typeof prepareZXingModule>[0]>['overrides'];

/** Every .wasm the module asks for is ours; anything else keeps the module's own path. */
export const ZXING_LOCAL = {
  locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? zxingReaderUrl : prefix + path),
} satisfies ZXingOverrides;

export async function detectorWasm(
  formatos: BarcodeFormat[],
  overrides: ZXingOverrides = ZXING_LOCAL,
): Promise<DetectorDeCodigos> {
  try {
    // Loaded now, so a reader that cannot start says so when the scanner opens, not on the first frame.
    await prepareZXingModule({ overrides, fireImmediately: true });
  } catch (error) {
    purgeZXingModule(); // a failed load is cached by the package: forget it so the next scanner tries again
    throw error;
  }
  return new BarcodeDetector({ formats: formatos });
}
