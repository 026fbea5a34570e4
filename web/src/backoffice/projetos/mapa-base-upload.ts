// The basemap package's upload (putMapaBase): the archive is the raw body of a PUT. XMLHttpRequest and not the API
// client's fetch, because fetch reports no upload progress over HTTP/1.1 and archives of several GB are normal; the
// File goes to send() as it is, a Blob the browser streams from disk, never read into memory.
import { mapaBaseAnswer, putMapaBase, type MapaBase } from '@novus/domain/api/mapa-base';
import { ApiError, errorBody, urlOf, type ErrorBody } from '../../api/client';

/** The part of XMLHttpRequest the upload uses (a test hands in a fake). */
export interface UploadRequest {
  readonly upload: {
    onprogress: ((event: ProgressEvent) => void) | null;
    onload: ((event: ProgressEvent) => void) | null;
  };
  onload: ((event: ProgressEvent) => void) | null;
  onerror: ((event: ProgressEvent) => void) | null;
  onabort: ((event: ProgressEvent) => void) | null;
  readonly status: number;
  readonly responseText: string;
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  send(body: Blob): void;
  abort(): void;
}

/** The user cancelled the upload: nothing was stored. */
export class UploadCanceled extends Error {
  constructor() {
    super('Envio cancelado');
    this.name = 'UploadCanceled';
  }
}

export interface MapaBaseUpload {
  /** The package as the server stored it; an ApiError (status 0 without an answer) or UploadCanceled otherwise. */
  done: Promise<MapaBase>;
  cancel: () => void;
}

/** The query's `nome` is at most 255 characters (the contract): a longer name keeps its end, the extension. */
const nomeOf = (name: string) => (name.length <= 255 ? name : name.slice(-255));

export function uploadMapaBase(
  projetoId: string,
  file: File,
  onProgress: (sent: number, total: number) => void,
  createRequest: () => UploadRequest = () => new XMLHttpRequest(),
): MapaBaseUpload {
  const request = createRequest();
  const done = new Promise<MapaBase>((resolve, reject) => {
    request.upload.onprogress = (event) =>
      onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    request.upload.onload = () => onProgress(file.size, file.size);
    request.onload = () => {
      if (request.status < 200 || request.status >= 300) {
        reject(new ApiError(request.status, errorBodyOf(request.responseText)));
        return;
      }
      try {
        resolve(mapaBaseAnswer.parse(JSON.parse(request.responseText)));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    request.onerror = () => reject(new ApiError(0, {}, 'Falha de rede'));
    request.onabort = () => reject(new UploadCanceled());
    request.open(
      'PUT',
      urlOf(putMapaBase, { params: { id: projetoId }, query: { nome: nomeOf(file.name) } }),
    );
    request.setRequestHeader('Content-Type', 'application/vnd.pmtiles');
    request.setRequestHeader('Accept', 'application/json');
    request.send(file);
  });
  return { done, cancel: () => request.abort() };
}

/** The server's error answer ({ message, errors }), or nothing when it is not JSON (a proxy's page). */
function errorBodyOf(text: string): ErrorBody {
  try {
    return errorBody(JSON.parse(text));
  } catch {
    return {};
  }
}
