// The project form's 'Mapa offline': how a basemap package reads, and its upload (a raw PUT with progress).
import { describe, expect, it } from 'vitest';
import type { MapaBase } from '@novus/domain/api/mapa-base';
import { ApiError } from '../src/api/client';
import {
  UploadCanceled,
  uploadMapaBase,
  type UploadRequest,
} from '../src/backoffice/projetos/mapa-base-upload';
import {
  atribuicaoText,
  blocosText,
  coberturaText,
  limitesText,
  listaText,
  percentual,
  progressoText,
  tamanhoText,
  tipoText,
  zoomText,
} from '../src/backoffice/projetos/mapa-offline';

describe('a package as the back office shows it', () => {
  it('gives the size in binary units with the Brazilian decimal comma', () => {
    expect(tamanhoText(0)).toBe('0 bytes');
    expect(tamanhoText(1)).toBe('1 byte');
    expect(tamanhoText(468)).toBe('468 bytes');
    expect(tamanhoText(12_800)).toBe('12,5 KB');
    // the real USGS raster of ../shared/realworld/pmtiles
    expect(tamanhoText(1_964_599)).toBe('1,9 MB');
    expect(tamanhoText(700 * 1024 ** 2)).toBe('700,0 MB');
    expect(tamanhoText(2.5 * 1024 ** 3)).toBe('2,50 GB');
    expect(tamanhoText(12 * 1024 ** 3)).toBe('12,00 GB');
  });

  it('names the kind of tiles', () => {
    expect(tipoText('webp')).toBe('Raster WebP');
    expect(tipoText('jpg')).toBe('Raster JPEG');
    expect(tipoText('mvt')).toBe('Vetorial (MVT)');
  });

  it('gives the zoom range, or the single zoom', () => {
    expect(zoomText(8, 15)).toBe('8 a 15');
    expect(zoomText(0, 0)).toBe('0');
  });

  it('gives the bounds in decimal degrees, south to north then west to east', () => {
    expect(limitesText({ oeste: -118.31982, sul: 36.56109, leste: -118.26069, norte: 36.59301 })).toBe(
      'latitude 36,5611° a 36,5930°, longitude -118,3198° a -118,2607°',
    );
  });

  it('counts tiles with the thousands separator', () => {
    expect(blocosText(1)).toBe('1 bloco');
    expect(blocosText(50)).toBe('50 blocos');
    expect(blocosText(1_234_567)).toBe('1.234.567 blocos');
  });

  it('shows an HTML attribution as its words', () => {
    expect(
      atribuicaoText(
        '<a href="https://github.com/protomaps/basemaps">Protomaps</a> &copy; <a href="https://openstreetmap.org">OpenStreetMap</a>',
      ),
    ).toBe('Protomaps © OpenStreetMap');
    expect(atribuicaoText('Created by QGIS algorithm: Generate XYZ tiles (Directory)')).toBe(
      'Created by QGIS algorithm: Generate XYZ tiles (Directory)',
    );
    expect(atribuicaoText('Dados &#169; Prefeitura &amp; IBGE &#xFFFFFFF;')).toBe(
      'Dados © Prefeitura & IBGE &#xFFFFFFF;',
    );
    expect(atribuicaoText(null)).toBe('Não informada');
    expect(atribuicaoText('<b></b>')).toBe('Não informada');
  });
});

describe('coverage of the project zones', () => {
  it('lists names the Portuguese way', () => {
    expect(listaText([])).toBe('');
    expect(listaText(['Centro'])).toBe('Centro');
    expect(listaText(['Centro', 'Batel'])).toBe('Centro e Batel');
    expect(listaText(['Centro', 'Batel', 'Água Verde'])).toBe('Centro, Batel e Água Verde');
  });

  it('warns naming the zones the archive leaves out', () => {
    expect(coberturaText(['Centro', 'Batel', 'Água Verde'], 3)).toEqual({
      severity: 'warning',
      text: 'O mapa offline não cobre as zonas Centro, Batel e Água Verde: os técnicos ficarão sem mapa offline fora dos limites do arquivo.',
    });
    expect(coberturaText(['Batel'], 3).text).toMatch(/^O mapa offline não cobre a zona Batel:/);
  });

  it('says so when every zone is covered, and does not claim it for a project without zones', () => {
    expect(coberturaText([], 3)).toEqual({
      severity: 'success',
      text: 'O mapa offline cobre todas as zonas do projeto.',
    });
    expect(coberturaText([], 1)).toEqual({
      severity: 'success',
      text: 'O mapa offline cobre a zona do projeto.',
    });
    expect(coberturaText([], 0).severity).toBe('info');
  });
});

describe('upload progress', () => {
  it('counts whole percents while sending, then says the server is checking the file', () => {
    expect(percentual(0, 1000)).toBe(0);
    expect(percentual(999, 1000)).toBe(99);
    expect(percentual(1000, 1000)).toBe(100);
    expect(percentual(5, 0)).toBe(0);
    expect(progressoText(421, 1000)).toBe('Enviando: 42%');
    expect(progressoText(1000, 1000)).toBe('Verificando o arquivo…');
  });
});

const PROJETO = '0190a1b2-c3d4-7e5f-8a9b-000000000001';

const MAPA: MapaBase = {
  origem: 'arquivo',
  nome: 'mapa.pmtiles',
  tipo: 'webp',
  vetorial: false,
  minZoom: 8,
  maxZoom: 15,
  limites: { oeste: -118.31982, sul: 36.56109, leste: -118.26069, norte: 36.59301 },
  tamanho: 1_964_599,
  blocos: 50,
  versao: 'v1',
  atribuicao: null,
  camadas: [],
  zonasDescobertas: ['Centro'],
};

/** Node has no ProgressEvent: an Event with the fields the upload reads stands in for it. */
function progressEvent(type: string, loaded = 0, total = 0): ProgressEvent {
  return Object.assign(new Event(type), { loaded, total, lengthComputable: total > 0 }) as ProgressEvent;
}

/** XMLHttpRequest as far as the upload uses it; the test plays the network. */
class FakeRequest implements UploadRequest {
  readonly upload: UploadRequest['upload'] = { onprogress: null, onload: null };
  onload: UploadRequest['onload'] = null;
  onerror: UploadRequest['onerror'] = null;
  onabort: UploadRequest['onabort'] = null;
  status = 0;
  responseText = '';
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: Blob | undefined;

  open(method: string, url: string): void {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string): void {
    this.headers[name] = value;
  }
  send(body: Blob): void {
    this.body = body;
  }
  abort(): void {
    this.onabort?.(progressEvent('abort'));
  }

  progress(loaded: number, total: number): void {
    this.upload.onprogress?.(progressEvent('progress', loaded, total));
  }
  answer(status: number, body: unknown): void {
    this.upload.onload?.(progressEvent('load'));
    this.status = status;
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
    this.onload?.(progressEvent('load'));
  }
}

function start(name = 'usgs mt whitney.pmtiles') {
  const request = new FakeRequest();
  const file = new File([new Uint8Array(2000)], name);
  const seen: [number, number][] = [];
  const upload = uploadMapaBase(
    PROJETO,
    file,
    (sent, total) => seen.push([sent, total]),
    () => request,
  );
  return { request, file, seen, upload };
}

describe('uploadMapaBase', () => {
  it('PUTs the file itself as the body, named in the query, and reports progress', async () => {
    const { request, file, seen, upload } = start();
    expect(request.method).toBe('PUT');
    expect(request.url).toBe(`/api/projeto/${PROJETO}/mapa-base?nome=usgs+mt+whitney.pmtiles`);
    expect(request.headers['Content-Type']).toBe('application/vnd.pmtiles');
    expect(request.body).toBe(file);
    request.progress(500, 2000);
    request.answer(200, MAPA);
    await expect(upload.done).resolves.toEqual(MAPA);
    expect(seen).toEqual([
      [500, 2000],
      [2000, 2000],
    ]);
  });

  it("rejects with the server's Portuguese message", async () => {
    const { request, upload } = start('invalid.pmtiles');
    request.answer(422, { message: 'O arquivo não é um PMTiles v3.' });
    const error: unknown = await upload.done.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, body: { message: 'O arquivo não é um PMTiles v3.' } });
  });

  it('rejects with no message when the answer is not JSON, and with status 0 when there is no answer', async () => {
    const proxy = start();
    proxy.request.answer(413, '<html>Request Entity Too Large</html>');
    await expect(proxy.upload.done).rejects.toMatchObject({ status: 413, body: {} });

    const offline = start();
    offline.request.onerror?.(progressEvent('error'));
    await expect(offline.upload.done).rejects.toMatchObject({ status: 0 });
  });

  it('rejects with UploadCanceled when the user cancels', async () => {
    const { upload } = start();
    upload.cancel();
    await expect(upload.done).rejects.toBeInstanceOf(UploadCanceled);
  });

  it('sends at most 255 characters of the name, keeping its extension', () => {
    const { request } = start(`${'a'.repeat(300)}.pmtiles`);
    const nome = new URL(request.url, 'http://x').searchParams.get('nome') ?? '';
    expect(nome).toHaveLength(255);
    expect(nome.endsWith('.pmtiles')).toBe(true);
  });

  it('refuses an answer that is not a package', async () => {
    const { request, upload } = start();
    request.answer(200, { ok: true });
    await expect(upload.done).rejects.toThrow();
  });
});
