// The barcode reader behind the scan buttons (issue 26): the browser's own BarcodeDetector where it reads every
// format a label may carry, else ZXing compiled to WebAssembly (leitor-wasm.ts), loaded only when asked for.
import type { BarcodeFormat } from 'barcode-detector/ponyfill';

/** What meters, consumer units and asset plates carry: linear codes of every common kind, QR and Data Matrix. */
export const FORMATOS_LEITOR = [
  'code_128',
  'code_39',
  'code_93',
  'codabar',
  'ean_13',
  'ean_8',
  'itf',
  'upc_a',
  'upc_e',
  'qr_code',
  'data_matrix',
] as const satisfies readonly BarcodeFormat[];

/** The browser's reader is used only when it reads all of these; otherwise a label it cannot read would fail. */
const FORMATOS_ESSENCIAIS: readonly string[] = ['code_128', 'code_39', 'ean_13', 'itf', 'qr_code'];

/** The part of the Barcode Detection API the reader uses (native or the polyfill). */
export interface DetectorDeCodigos {
  detect(fonte: ImageBitmapSource): Promise<readonly { rawValue: string }[]>;
}

export interface DetectorNativo {
  new (options: { formats: string[] }): DetectorDeCodigos;
  getSupportedFormats(): Promise<readonly string[]>;
}

export interface Leitor {
  origem: 'nativo' | 'wasm';
  /** The first code's text in the image or video frame, or null when none is readable. */
  ler(fonte: ImageBitmapSource): Promise<string | null>;
}

export interface LeitorOptions {
  /** The browser's BarcodeDetector (absent in Firefox, Safari on iOS and Chromium on desktop Linux/Windows). */
  nativo?: DetectorNativo;
  /** Makes the WebAssembly reader; tests hand the .wasm bytes over instead of its URL. */
  wasm?: (formatos: BarcodeFormat[]) => Promise<DetectorDeCodigos>;
}

function nativoDoNavegador(): DetectorNativo | undefined {
  // BarcodeDetector is not in TypeScript's DOM library; where it exists it has this shape (WICG Shape Detection).
  return (globalThis as { BarcodeDetector?: DetectorNativo }).BarcodeDetector;
}

async function wasmDoBuild(formatos: BarcodeFormat[]): Promise<DetectorDeCodigos> {
  const { detectorWasm } = await import('./leitor-wasm');
  return detectorWasm(formatos);
}

async function detectorEscolhido({
  nativo = nativoDoNavegador(),
  wasm = wasmDoBuild,
}: LeitorOptions): Promise<{ origem: Leitor['origem']; detector: DetectorDeCodigos }> {
  const formatos: BarcodeFormat[] = [...FORMATOS_LEITOR];
  if (nativo) {
    const suportados = await nativo.getSupportedFormats().catch(() => [] as readonly string[]);
    if (FORMATOS_ESSENCIAIS.every((formato) => suportados.includes(formato))) {
      return {
        origem: 'nativo',
        detector: new nativo({ formats: formatos.filter((formato) => suportados.includes(formato)) }),
      };
    }
  }
  return { origem: 'wasm', detector: await wasm(formatos) };
}

export async function criarLeitor(options: LeitorOptions = {}): Promise<Leitor> {
  const { origem, detector } = await detectorEscolhido(options);
  return {
    origem,
    async ler(fonte) {
      const codigos = await detector.detect(fonte);
      const texto = codigos.map((codigo) => codigo.rawValue.trim()).find((valor) => valor !== '');
      return texto ?? null;
    },
  };
}

/** The rear camera where the phone has one (labels are read with the back of the phone), any camera otherwise. */
export const CAMERA_TRASEIRA: MediaStreamConstraints = {
  audio: false,
  video: { facingMode: { ideal: 'environment' }, width: { ideal: 1280 }, height: { ideal: 720 } },
};

/** What the technician reads when the camera cannot open; the field stays there to type the code. */
export function mensagemDaCamera(error: unknown): string {
  const nome = error instanceof Error || error instanceof DOMException ? error.name : '';
  if (nome === 'NotAllowedError' || nome === 'SecurityError') {
    return 'O acesso à câmera foi negado. Permita a câmera nas configurações do navegador ou digite o código no campo.';
  }
  if (nome === 'NotFoundError' || nome === 'OverconstrainedError' || nome === 'SemCamera') {
    return 'Nenhuma câmera foi encontrada neste aparelho. Digite o código no campo.';
  }
  if (nome === 'NotReadableError') {
    return 'A câmera está sendo usada por outro aplicativo. Feche-o e tente de novo, ou digite o código no campo.';
  }
  return 'Não foi possível abrir a câmera. Digite o código no campo.';
}

export const LEITOR_INDISPONIVEL = 'Não foi possível carregar o leitor de códigos. Digite o código no campo.';

/** The camera's stream; a browser without camera access at all (no mediaDevices) reads as no camera. */
export async function abrirCamera(
  navegador: { mediaDevices?: Pick<MediaDevices, 'getUserMedia'> } = globalThis.navigator,
): Promise<MediaStream> {
  const { mediaDevices } = navegador;
  if (!mediaDevices?.getUserMedia) throw new DOMException('no mediaDevices', 'SemCamera');
  return mediaDevices.getUserMedia(CAMERA_TRASEIRA);
}
