// The HTTP transport against a fake fetch: what it sends, and which answers may confirm an upload.
import { describe, expect, it } from 'vitest';
import { lptAgiltecFlow } from '@novus/domain/flows/lpt-agiltec';
import { unidadeFlow } from '@novus/domain/flows/unidade';
import { HttpSyncTransport } from '../src/api/sync-transport';
import { confirmsUpload, type CopiaPergunta, TransportError } from '../src/offline/sync';

const ID = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';

function fakeFetch(answer: () => Response | Promise<Response>) {
  const calls: { url: string; init: RequestInit | undefined }[] = [];
  const fetchFn: typeof fetch = async (input, init) => {
    calls.push({ url: String(input), init });
    return answer();
  };
  return { calls, fetchFn };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
  });

describe('HttpSyncTransport', () => {
  it('posts multipart fields and photos named by slot, with the cookie', async () => {
    const { calls, fetchFn } = fakeFetch(() => json({ _id: ID }, 201));
    const transport = new HttpSyncTransport(fetchFn);
    const answer = await transport.upload(unidadeFlow, { id: ID, numero: '12' }, [
      { slot: 0, blob: new Blob(['a'], { type: 'image/jpeg' }) },
      { slot: 2, blob: new Blob(['b'], { type: 'image/jpeg' }) },
    ]);
    expect(confirmsUpload(answer, ID)).toBe(true);
    expect(calls[0]?.url).toBe('/api/unidade');
    expect(calls[0]?.init?.method).toBe('POST');
    expect(calls[0]?.init?.credentials).toBe('same-origin');
    const form = calls[0]?.init?.body;
    expect(form).toBeInstanceOf(FormData);
    const data = form as FormData; // asserted just above
    expect(data.get('numero')).toBe('12');
    expect(data.getAll('fotos').map((file) => (file as File).name)).toEqual(['0.jpg', '2.jpg']);
  });

  it('a captive portal page answered 200 does not confirm the upload', async () => {
    const { fetchFn } = fakeFetch(
      () =>
        new Response('<html>Entre no Wi-Fi</html>', {
          status: 200,
          headers: { 'Content-Type': 'text/html' },
        }),
    );
    const answer = await new HttpSyncTransport(fetchFn).upload(unidadeFlow, { id: ID }, []);
    expect(confirmsUpload(answer, ID)).toBe(false);
  });

  it('a JSON 200 echoing another id does not confirm either', async () => {
    const { fetchFn } = fakeFetch(() => json({ _id: 'outro' }));
    const answer = await new HttpSyncTransport(fetchFn).upload(unidadeFlow, { id: ID }, []);
    expect(confirmsUpload(answer, ID)).toBe(false);
  });

  it('401 is a TransportError 401 (the engine turns it into SessionExpiredError)', async () => {
    const { fetchFn } = fakeFetch(() => json({ message: 'Sessão expirada.' }, 401));
    const error = await new HttpSyncTransport(fetchFn)
      .upload(unidadeFlow, { id: ID }, [])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).status).toBe(401);
    expect((error as TransportError).message).toBe('Sessão expirada.');
  });

  it('no network is a TransportError 0; a validation error joins the server messages', async () => {
    const offline = new HttpSyncTransport(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(offline.getProjetos()).rejects.toMatchObject({ name: 'TransportError', status: 0 });
    const { fetchFn } = fakeFetch(() =>
      json({ message: 'Dados inválidos.', errors: [{ msg: 'a' }, { msg: 'b' }] }, 400),
    );
    await expect(new HttpSyncTransport(fetchFn).upload(unidadeFlow, {}, [])).rejects.toMatchObject({
      status: 400,
      message: 'a | b',
    });
  });

  const PROJETO_ID = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a6c';
  const ZONA_ID = '0190a1b2-c3d4-7e5f-8a9b-000000000001';
  /** A project as GET /api/projeto/getByUser answers it (its declaration in domain/src/api/projetos.ts). */
  const remoteProjeto = {
    _id: PROJETO_ID,
    nome: 'Curitiba',
    fluxos: ['hc'],
    imagensMapa: [],
    fuso: 22,
    limiteDownload: null,
    carimboFotos: false,
    retencaoCopiasDias: 30,
    mapaBase: null,
    zonas: [
      {
        _id: ZONA_ID,
        label: 'Zona Centro',
        poligono: [{ lat: -25.4, lng: -49.2 }],
        poligono2: { type: 'Polygon', coordinates: [[[-49.2, -25.4]]] },
      },
    ],
  };

  it('maps the projects of getByUser to the device shape', async () => {
    const { calls, fetchFn } = fakeFetch(() => json([remoteProjeto]));
    expect(await new HttpSyncTransport(fetchFn).getProjetos()).toEqual([
      {
        id: PROJETO_ID,
        nome: 'Curitiba',
        fluxos: ['hc'],
        fuso: 22,
        zonas: [{ _id: ZONA_ID, label: 'Zona Centro', poligono: [{ lat: -25.4, lng: -49.2 }] }],
        mapaBase: null,
        // the photo stamp's setting (issue 26): the device stamps unless the project turned it off
        carimboFotos: false,
        // how long the phone keeps what it sent of the project (issue 39)
        retencaoCopiasDias: 30,
      },
    ]);
    expect(calls[0]?.url).toBe('/api/projeto/getByUser');
  });

  it('keeps the basemap package of a project, known offline for the download and the map', async () => {
    const mapaBase = {
      origem: 'arquivo',
      nome: 'curitiba.pmtiles',
      tipo: 'webp',
      vetorial: false,
      minZoom: 8,
      maxZoom: 15,
      limites: { oeste: -49.4, sul: -25.6, leste: -49.1, norte: -25.3 },
      tamanho: 1_964_599,
      blocos: 120,
      versao: 'a1b2',
      atribuicao: 'USGS',
      camadas: [],
      zonasDescobertas: [],
    };
    const { fetchFn } = fakeFetch(() => json([{ ...remoteProjeto, mapaBase }]));
    const [projeto] = await new HttpSyncTransport(fetchFn).getProjetos();
    expect(projeto?.mapaBase).toEqual(mapaBase);
  });

  it('projects that are not what getByUser declares are an error, never a project list', async () => {
    for (const answer of [{ projetos: [] }, [{ ...remoteProjeto, zonas: 'nenhuma' }], [{ nome: 'Sem id' }]]) {
      const { fetchFn } = fakeFetch(() => json(answer));
      await expect(new HttpSyncTransport(fetchFn).getProjetos()).rejects.toMatchObject({
        name: 'TransportError',
        status: 0,
        message: 'Resposta inesperada do servidor ao baixar projetos.',
      });
    }
  });

  it('asks which photos the server holds, and keeps only the asked hashes of a declared answer', async () => {
    const [a, b, c] = ['a'.repeat(64), 'b'.repeat(64), 'c'.repeat(64)] as const;
    const { calls, fetchFn } = fakeFetch(() => json({ existem: [a, c] }));
    expect(await new HttpSyncTransport(fetchFn).fotosNoServidor([a, b])).toEqual(new Set([a]));
    expect(calls[0]?.url).toBe('/api/fotos/existem');
    for (const answer of [{ existem: [a, 7] }, { outros: [] }]) {
      const other = fakeFetch(() => json(answer));
      await expect(new HttpSyncTransport(other.fetchFn).fotosNoServidor([a])).rejects.toMatchObject({
        status: 0,
        message: 'Resposta inesperada do servidor (fotos).',
      });
    }
    const portal = fakeFetch(
      () => new Response('<html></html>', { headers: { 'Content-Type': 'text/html' } }),
    );
    await expect(new HttpSyncTransport(portal.fetchFn).fotosNoServidor([a])).rejects.toMatchObject({
      status: 0,
    });
  });

  it('downloads a zone by the declared path of the flow', async () => {
    const { calls, fetchFn } = fakeFetch(() => json([{ _id: ID }]));
    expect(await new HttpSyncTransport(fetchFn).getByZona(unidadeFlow, ZONA_ID)).toEqual([{ _id: ID }]);
    expect(calls[0]?.url).toBe(`/api/unidade/getByZona?id=${ZONA_ID}`);
  });

  it('lists a record’s photos by the declared path, or none when the answer is not a list of URLs', async () => {
    const urls = [`/api/fotos/${ID}/0`];
    const { calls, fetchFn } = fakeFetch(() => json(urls));
    expect(await new HttpSyncTransport(fetchFn).listFotos(unidadeFlow, ID)).toEqual(urls);
    expect(calls[0]?.url).toBe(`/api/unidade/${ID}/fotos`);
    const odd = fakeFetch(() => json({ fotos: urls }));
    expect(await new HttpSyncTransport(odd.fetchFn).listFotos(unidadeFlow, ID)).toEqual([]);
  });

  it('a download answered with HTML is an error, never an empty list', async () => {
    const { fetchFn } = fakeFetch(
      () => new Response('<html></html>', { headers: { 'Content-Type': 'text/html' } }),
    );
    await expect(new HttpSyncTransport(fetchFn).getByZona(unidadeFlow, 'z1')).rejects.toBeInstanceOf(
      TransportError,
    );
  });

  it('downloads LPT Agiltec by the project’s name, and a refusal carries the server’s message', async () => {
    const { calls, fetchFn } = fakeFetch(() => json([{ _id: ID, os: '5001' }]));
    const projeto = { id: 'p1', nome: 'Luz no Campo' };
    expect(await new HttpSyncTransport(fetchFn).getByProjeto(lptAgiltecFlow, projeto)).toEqual([
      { _id: ID, os: '5001' },
    ]);
    expect(calls[0]?.url).toBe('/api/lptv2/projeto/Luz%20no%20Campo');
    const refused = fakeFetch(() => json({ message: 'Projeto não encontrado.' }, 404));
    await expect(
      new HttpSyncTransport(refused.fetchFn).getByProjeto(lptAgiltecFlow, projeto),
    ).rejects.toMatchObject({ status: 404, message: 'Projeto não encontrado.' });
  });

  it('downloads the technician’s corrections, and an older server’s 404 stays a 404 for the sync to ignore', async () => {
    const correcao = {
      fluxo: 'hc',
      registro: { _id: ID, projeto: ID, numero: '45' },
      fotos: [{ slot: 0, hash: 'a'.repeat(64), url: `/api/fotos/${ID}/0` }],
      revisao: {
        versao: 1,
        comentario: 'Número errado.',
        campos: { numero: 'É 54.' },
        revisor: 'Ana',
        em: 1,
      },
    };
    const { calls, fetchFn } = fakeFetch(() => json([correcao]));
    expect(await new HttpSyncTransport(fetchFn).getCorrecoes()).toEqual([correcao]);
    expect(calls[0]?.url).toBe('/api/correcoes');
    const older = fakeFetch(() => json({ message: 'Not Found' }, 404));
    await expect(new HttpSyncTransport(older.fetchFn).getCorrecoes()).rejects.toMatchObject({ status: 404 });
    const portal = fakeFetch(
      () => new Response('<html></html>', { headers: { 'Content-Type': 'text/html' } }),
    );
    await expect(new HttpSyncTransport(portal.fetchFn).getCorrecoes()).rejects.toMatchObject({ status: 0 });
  });

  it('fetches a correction’s photo from the server’s photo URLs only, and only an image', async () => {
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff]);
    const { calls, fetchFn } = fakeFetch(
      () => new Response(jpeg, { headers: { 'Content-Type': 'image/jpeg' } }),
    );
    const transport = new HttpSyncTransport(fetchFn);
    const blob = await transport.getFoto(`/api/fotos/${ID}/0`);
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(jpeg);
    await expect(transport.getFoto('https://elsewhere.example/x.jpg')).rejects.toBeInstanceOf(TransportError);
    expect(calls).toHaveLength(1);
    const portal = fakeFetch(
      () => new Response('<html></html>', { headers: { 'Content-Type': 'text/html' } }),
    );
    await expect(new HttpSyncTransport(portal.fetchFn).getFoto(`/api/fotos/${ID}/0`)).rejects.toBeInstanceOf(
      TransportError,
    );
  });

  it('logs as SPEC.md section 7 says', async () => {
    const { calls, fetchFn } = fakeFetch(() => new Response(null, { status: 204 }));
    await new HttpSyncTransport(fetchFn).log('SINCRONIZACAO UNIDADES', { tecnico: 'Ana' });
    expect(calls[0]?.url).toBe('/api/logger');
    expect(JSON.parse(String(calls[0]?.init?.body))).toEqual({
      severity: 'ERROR',
      message: 'SINCRONIZACAO UNIDADES',
      extras: { tecnico: 'Ana' },
    });
  });

  it('marks a record sent again with reenvio=1 (issue 39)', async () => {
    const { calls, fetchFn } = fakeFetch(() => json({ _id: ID }, 201));
    const transport = new HttpSyncTransport(fetchFn);
    await transport.upload(unidadeFlow, { id: ID }, [], { reenvio: true });
    await transport.upload(unidadeFlow, { id: ID }, []);
    const [again, first] = calls.map((call) => call.init?.body as FormData); // upload posts FormData (above)
    expect(again?.get('reenvio')).toBe('1');
    expect(first?.has('reenvio')).toBe(false);
  });

  it('asks about kept records by the declared call, and keeps only the answers about ids it asked', async () => {
    const other = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c';
    const { calls, fetchFn } = fakeFetch(() =>
      json({
        registros: [
          { id: ID, estado: 'faltando', fotosFaltando: [] },
          { id: other, estado: 'excluido', fotosFaltando: [] },
        ],
      }),
    );
    const asked: CopiaPergunta[] = [{ id: ID, fluxo: 'hc', fotos: ['a'.repeat(64)] }];
    expect(await new HttpSyncTransport(fetchFn).conferir(asked)).toEqual([
      { id: ID, estado: 'faltando', fotosFaltando: [] },
    ]);
    expect(calls[0]?.url).toBe('/api/registros/conferir');
    expect(calls[0]?.init?.method).toBe('POST');
    expect(calls[0]?.init?.credentials).toBe('same-origin');
    expect(JSON.parse(String(calls[0]?.init?.body))).toEqual({ registros: asked });
  });

  it('a portal’s page, an undeclared answer or a refusal to conferir is a TransportError with its status', async () => {
    const portal = fakeFetch(
      () =>
        new Response('<html>Entre no Wi-Fi</html>', {
          status: 200,
          headers: { 'Content-Type': 'text/html' },
        }),
    );
    await expect(new HttpSyncTransport(portal.fetchFn).conferir([])).rejects.toMatchObject({
      name: 'TransportError',
      status: 0,
    });
    const odd = fakeFetch(() => json({ registros: [{ id: ID, estado: 'perdido' }] }));
    await expect(new HttpSyncTransport(odd.fetchFn).conferir([])).rejects.toMatchObject({ status: 0 });
    const expired = fakeFetch(() => json({ message: 'Sessão expirada.' }, 401));
    await expect(new HttpSyncTransport(expired.fetchFn).conferir([])).rejects.toMatchObject({
      name: 'TransportError',
      status: 401,
      message: 'Sessão expirada.',
    });
    const older = fakeFetch(() => json({ message: 'Não encontrado.' }, 404));
    await expect(new HttpSyncTransport(older.fetchFn).conferir([])).rejects.toMatchObject({ status: 404 });
  });

  it('gives back lost photos as multipart parts named by slot, to the record’s declared path', async () => {
    const { calls, fetchFn } = fakeFetch(() => json({ restauradas: [1] }));
    await new HttpSyncTransport(fetchFn).restaurarFotos(ID, [
      { slot: 1, blob: new Blob(['b'], { type: 'image/jpeg' }) },
    ]);
    expect(calls[0]?.url).toBe(`/api/registros/${ID}/fotos`);
    expect(calls[0]?.init?.method).toBe('POST');
    const form = calls[0]?.init?.body as FormData; // restaurarFotos posts FormData
    expect(form.getAll('fotos').map((file) => (file as File).name)).toEqual(['1.jpg']);
    const conflict = fakeFetch(() => json({ message: 'A foto enviada para a posição 1 não é a que…' }, 409));
    await expect(
      new HttpSyncTransport(conflict.fetchFn).restaurarFotos(ID, [{ slot: 1, blob: new Blob(['x']) }]),
    ).rejects.toMatchObject({ name: 'TransportError', status: 409 });
  });
});
