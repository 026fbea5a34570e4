// The scan buttons' reader (issue 26) on barcode images drawn here with bwip-js: ZXing in WebAssembly, as a phone
// without a native BarcodeDetector (iOS) runs it, and the choice between that and the browser's own reader.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import bwipjs from 'bwip-js/node';
import { ZXING_WASM_VERSION } from 'barcode-detector/ponyfill';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  abrirCamera,
  CAMERA_TRASEIRA,
  criarLeitor,
  type DetectorDeCodigos,
  type DetectorNativo,
  FORMATOS_LEITOR,
  type Leitor,
  mensagemDaCamera,
} from '../src/collect/shared/leitor';
import { detectorWasm, ZXING_LOCAL } from '../src/collect/shared/leitor-wasm';

const require = createRequire(import.meta.url);

// The polyfill reports each code's box as a DOMRectReadOnly, which browsers have and Node does not.
if (!('DOMRectReadOnly' in globalThis)) {
  Object.assign(globalThis, {
    DOMRectReadOnly: class {
      constructor(
        readonly x = 0,
        readonly y = 0,
        readonly width = 0,
        readonly height = 0,
      ) {}
    },
  });
}

/** A PNG of the code, as a photo of a label would be handed to the reader. */
async function png(bcid: string, text: string): Promise<Blob> {
  const bytes = await bwipjs.toBuffer({
    bcid,
    text,
    scale: 3,
    height: 12,
    paddingwidth: 10,
    paddingheight: 10,
    backgroundcolor: 'FFFFFF',
  });
  return new Blob([new Uint8Array(bytes)], { type: 'image/png' });
}

let leitor: Leitor;

beforeAll(async () => {
  // In the browser the .wasm comes from our build by URL (ZXING_LOCAL); Node has no server, so hand the bytes over.
  const wasmBinary = fs.readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
  leitor = await criarLeitor({
    nativo: undefined,
    wasm: (formatos) => detectorWasm(formatos, { wasmBinary: new Uint8Array(wasmBinary).buffer }),
  });
});

describe('the WebAssembly reader', () => {
  it('reads Code 128, QR, EAN-13, Code 39 and ITF', async () => {
    expect(leitor.origem).toBe('wasm');
    expect(await leitor.ler(await png('code128', 'MED-4455-A1'))).toBe('MED-4455-A1');
    expect(await leitor.ler(await png('qrcode', 'UC 3001234567'))).toBe('UC 3001234567');
    expect(await leitor.ler(await png('ean13', '4006381333931'))).toBe('4006381333931');
    expect(await leitor.ler(await png('code39', 'PLACA 778'))).toBe('PLACA 778');
    expect(await leitor.ler(await png('interleaved2of5', '12345678'))).toBe('12345678');
  });

  it('reads nothing where there is no code', async () => {
    const blank = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGP4DwABAQEAG4cxTQAAAABJRU5ErkJggg==',
      'base64',
    );
    expect(await leitor.ler(new Blob([new Uint8Array(blank)], { type: 'image/png' }))).toBeNull();
  });

  it('loads the .wasm from our own build, never from a CDN, and the one the polyfill was built for', () => {
    const url = ZXING_LOCAL.locateFile('zxing_reader.wasm', 'https://fastly.jsdelivr.net/npm/zxing-wasm/');
    expect(url).toMatch(/zxing_reader\.wasm$/);
    expect(url).not.toMatch(/^https?:/);
    // zxing-wasm's exports hide its package.json: read it beside the .wasm it resolves to.
    const wasm = require.resolve('zxing-wasm/reader/zxing_reader.wasm');
    const packageJson = path.join(
      wasm.slice(0, wasm.lastIndexOf(`${path.sep}dist${path.sep}`)),
      'package.json',
    );
    const installed = JSON.parse(fs.readFileSync(packageJson, 'utf8')) as { version: string };
    expect(installed.version).toBe(ZXING_WASM_VERSION);
  });
});

describe('choosing the reader', () => {
  const naoUsado = (): Promise<DetectorDeCodigos> => Promise.reject(new Error('WebAssembly not expected'));

  function nativo(suportados: string[], lido = 'NATIVO-1'): DetectorNativo & { pedidos: string[][] } {
    const pedidos: string[][] = [];
    return Object.assign(
      class {
        constructor({ formats }: { formats: string[] }) {
          pedidos.push(formats);
        }
        async detect() {
          return [{ rawValue: `  ${lido} ` }];
        }
        static async getSupportedFormats() {
          return suportados;
        }
      },
      { pedidos },
    );
  }

  it("uses the browser's own reader when it reads every essential format, asking only for those it knows", async () => {
    const android = nativo(['code_128', 'code_39', 'ean_13', 'itf', 'qr_code', 'aztec']);
    const proprio = await criarLeitor({ nativo: android, wasm: naoUsado });
    expect(proprio.origem).toBe('nativo');
    expect(await proprio.ler(new Blob())).toBe('NATIVO-1');
    expect(android.pedidos).toEqual([['code_128', 'code_39', 'ean_13', 'itf', 'qr_code']]);
  });

  it('falls back to WebAssembly when the native reader misses a format labels carry', async () => {
    const soQr = nativo(['qr_code']);
    let pedidos: string[] = [];
    const fallback = await criarLeitor({
      nativo: soQr,
      wasm: async (formatos) => {
        pedidos = formatos;
        return { detect: async () => [] };
      },
    });
    expect(fallback.origem).toBe('wasm');
    expect(soQr.pedidos).toEqual([]);
    expect(pedidos).toEqual([...FORMATOS_LEITOR]);
    expect(await fallback.ler(new Blob())).toBeNull();
  });
});

describe('the camera', () => {
  it('asks for the rear camera, video only', async () => {
    let pedido: MediaStreamConstraints | undefined;
    const stream = {} as MediaStream; // never used: only handed back
    const mediaDevices = {
      getUserMedia: async (constraints?: MediaStreamConstraints) => {
        pedido = constraints;
        return stream;
      },
    };
    expect(await abrirCamera({ mediaDevices })).toBe(stream);
    expect(pedido).toEqual(CAMERA_TRASEIRA);
    expect(pedido?.audio).toBe(false);
    expect(pedido?.video).toMatchObject({ facingMode: { ideal: 'environment' } });
  });

  it('says in Portuguese why it did not open, and that the code can be typed', async () => {
    const recusada = mensagemDaCamera(new DOMException('Permission denied', 'NotAllowedError'));
    expect(recusada).toBe(
      'O acesso à câmera foi negado. Permita a câmera nas configurações do navegador ou digite o código no campo.',
    );
    const semCamera = 'Nenhuma câmera foi encontrada neste aparelho. Digite o código no campo.';
    expect(mensagemDaCamera(new DOMException('Requested device not found', 'NotFoundError'))).toBe(semCamera);
    // a browser with no camera access at all (an old WebView, a page not served over HTTPS)
    const erro = await abrirCamera({}).catch((error: unknown) => error);
    expect(mensagemDaCamera(erro)).toBe(semCamera);
    expect(mensagemDaCamera(new DOMException('Could not start video source', 'NotReadableError'))).toMatch(
      /^A câmera está sendo usada por outro aplicativo\./,
    );
    expect(mensagemDaCamera(new Error('?'))).toBe(
      'Não foi possível abrir a câmera. Digite o código no campo.',
    );
  });
});
