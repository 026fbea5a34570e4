// Hostile inputs (issue 12, security sweep): each is refused with a 4xx and a Portuguese message, nothing is
// stored, no file lands outside the photo store, and the server answers the next normal request.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unidadeForm } from './support/fixtures.ts';
import {
  createAdminCliente,
  createProjeto,
  createSession,
  createTestContext,
  fakeJpeg,
  FORM,
  formBody,
  multipart,
  sample,
  type TestContext,
  uploadRecord,
} from './support/test-app.ts';

/** Words a Portuguese message of Novus holds; Fastify's and zod's English ones hold none of them. */
const PORTUGUESE =
  /inválid|não |excede|demais|caracteres|máximo|arquivo|Endereço|Requisição|encontrad|Linha|Zoneamento|foto/i;

interface Answer {
  statusCode: number;
  body: string;
  json(): unknown;
}

function messageOf(response: Answer): string {
  const body = response.json() as { message?: unknown };
  return typeof body.message === 'string' ? body.message : '';
}

/**
 * Sends a hostile request and expects a 4xx (one of `statuses`) whose message is Portuguese and, when given,
 * matches `message`. The time is asserted only to its order of magnitude (every case answers well under a second
 * on an idle machine; a parser that expands entities or walks a deep value would take minutes or crash).
 */
async function expectRefused(
  send: () => Promise<Answer>,
  statuses: number[],
  message?: RegExp,
  what = '',
): Promise<Answer> {
  const started = performance.now();
  const response = await send();
  const elapsed = performance.now() - started;
  const label = `${what} -> ${response.statusCode} ${response.body.slice(0, 200)}`;
  expect(statuses, label).toContain(response.statusCode);
  expect(messageOf(response), label).toMatch(PORTUGUESE);
  if (message) expect(messageOf(response), label).toMatch(message);
  expect(elapsed, label).toBeLessThan(10_000);
  return response;
}

/** Bytes as a form value encodes them, every byte escaped (so nothing is decoded on the way). */
const percentEncoded = (bytes: Buffer) =>
  [...bytes].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');

/** Deterministic bytes of every value but 0 (so not caught as NUL), nothing like XML or a point file. */
const garbage = (size: number) =>
  Buffer.from(Array.from({ length: size }, (_, i) => ((i * 131 + 7) % 255) + 1)).toString('latin1');

describe('hostile inputs: a Portuguese 4xx, nothing stored, the server still serving', () => {
  let ctx: TestContext;
  let admin: string;
  let tecnico: string;
  let clienteId: string;
  let usuarioId: string;
  let projeto: { _id: string; nome: string; zonas: { _id: string; label: string }[] };
  let registroId: string;

  const count = async (table: string) =>
    (await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]?.n ?? -1;
  const photoFiles = () =>
    fs
      .readdirSync(ctx.blobDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(ctx.blobDir, path.join(entry.parentPath, entry.name)));
  const stored = async () => ({
    clientes: await count('clientes'),
    usuarios: await count('usuarios'),
    projetos: await count('projetos'),
    zonas: await count('zonas'),
    registros: await count('registros'),
    fotos: await count('fotos'),
    arquivos: photoFiles().length,
  });
  /** A normal request after the hostile ones: the server still answers, with the data unharmed. */
  const expectStillServing = async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    const read = await ctx.app.inject({
      method: 'GET',
      url: `/api/projeto/${projeto._id}`,
      headers: { cookie: admin },
    });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ nome: 'Campo', zonas: expect.any(Array) });
  };
  const postProjeto = (payload: string | Buffer) =>
    ctx.app.inject({ method: 'POST', url: '/api/projeto', headers: { ...FORM, cookie: admin }, payload });
  /** A 50 MB project form: refused by the body limit with a 413, nothing stored since before, still serving. */
  const expectOverBodyLimit = async (huge: string, before: Awaited<ReturnType<typeof stored>>) => {
    await expectRefused(
      () => postProjeto(huge),
      [413],
      /^O conteúdo enviado excede o tamanho permitido\.$/,
      '50 MB',
    );
    expect(await stored()).toEqual(before);
    await expectStillServing();
  };
  const base = () => ({
    nome: `Hostil ${crypto.randomUUID()}`,
    cliente: clienteId,
    fuso: '22',
    fluxos: ['hc', 'ip', 'fiscalizacao', 'lpt2'],
  });
  const unidade = (extra: Record<string, string> = {}) =>
    unidadeForm(crypto.randomUUID(), projeto._id, {
      dataHora: String(Date.UTC(2026, 10, 20, 14, 30)),
      numero: '120',
      ...extra,
    });

  beforeAll(async () => {
    ctx = await createTestContext();
    ({ admin, cliente: clienteId } = await createAdminCliente(ctx.app, ctx.db, 'Copel'));
    projeto = await createProjeto(ctx.app, admin, {
      nome: 'Campo',
      cliente: clienteId,
      fluxos: ['hc', 'ip', 'fiscalizacao', 'lpt2'],
    });
    const session = await createSession(ctx.app, ctx.db, {
      roles: ['tecnico'],
      cliente: clienteId,
      zonas: projeto.zonas.map((zona) => zona._id),
    });
    usuarioId = session.user.id;
    tecnico = session.cookie;
    registroId = crypto.randomUUID();
    const upload = await uploadRecord(
      ctx.app,
      'unidade',
      { ...unidade(), id: registroId },
      {
        fotos: [fakeJpeg()],
        cookie: tecnico,
      },
    );
    expect(upload.statusCode).toBe(201);
  });
  afterAll(async () => ctx.close());

  it('refuses KML with a DOCTYPE (XXE, entity expansion), binary bytes, wrong encodings and oversize', async () => {
    const before = await stored();
    const kml = sample('zoneamento-curitiba.kml');
    const laughs = [
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">',
      ...Array.from(
        { length: 9 },
        (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`,
      ),
      ']><kml><Document><name>&lol9;</name></Document></kml>',
    ].join('');
    const cases: [string, string, RegExp][] = [
      [
        'XXE',
        '<?xml version="1.0"?><!DOCTYPE kml [<!ENTITY x SYSTEM "file:///etc/passwd">]><kml>&x;</kml>',
        /^Zoneamento: O arquivo KML não pode conter DOCTYPE ou entidades\.$/,
      ],
      ['billion laughs', laughs, /^Zoneamento: O arquivo KML não pode conter DOCTYPE ou entidades\.$/],
      [
        'external DTD',
        kml.replace('<kml', '<!doctype kml SYSTEM "http://169.254.169.254/latest/meta-data/"><kml'),
        /^Zoneamento: O arquivo KML não pode conter DOCTYPE ou entidades\.$/,
      ],
      ['undeclared entity', '<kml>&x;</kml>', /^Zoneamento: O arquivo não é um XML\/KML válido\.$/],
      ['binary garbage', garbage(64 * 1024), /^Zoneamento: O arquivo não é um XML\/KML válido\.$/],
      [
        'a zip (NUL bytes)',
        'PK\u0003\u0004\u0014\u0000\u0000\u0000\u0008\u0000doc.kml',
        /^Zoneamento: O arquivo não é um arquivo de texto/,
      ],
      [
        'UTF-16 without its byte order mark',
        Buffer.from(kml, 'utf16le').toString('latin1'),
        /^Zoneamento: O arquivo não é um arquivo de texto/,
      ],
      [
        'Latin-1 already read as UTF-8 (U+FFFD)',
        kml.replace('Zona Centro', 'Zona Jo\uFFFDo'),
        /^Zoneamento: O arquivo tem caracteres ilegíveis/,
      ],
      [
        'a zone name of 100,000 characters',
        kml.replace('Zona Centro', 'Z'.repeat(100_000)),
        /^Zoneamento: O nome da zona 1 tem mais de 200 caracteres/,
      ],
    ];
    for (const [what, text, message] of cases) {
      const payload = formBody({ ...base(), kml: text });
      await expectRefused(() => postProjeto(payload), [400], message, what);
    }
    // Big files as raw bodies: URLSearchParams would take longer to build them than the server to refuse them.
    const over = `${formBody(base())}&kml=${'x'.repeat(15 * 1024 * 1024)}`;
    await expectRefused(
      () => postProjeto(over),
      [400],
      /^Zoneamento: O arquivo KML excede o tamanho máximo de 10 MB\.$/,
      '15 MB: over the KML limit, under the form limit',
    );
    const huge = `${formBody(base())}&kml=${'x'.repeat(50 * 1024 * 1024)}`;
    await expectOverBodyLimit(huge, before);
  });

  it('reads Latin-1 (Windows-1252) point and KML files right, and refuses one already garbled', async () => {
    // As `curl --data-urlencode arquivoIP@pontos.txt` sends a file saved by a Brazilian spreadsheet.
    const latin1 = Buffer.from(
      '-49.27;-25.43;S\u00e3o Jo\u00e3o;Circuito \u0093A\u0094 \u0096 Ação\n',
      'latin1',
    );
    const zonas = Buffer.from(
      sample('zoneamento-curitiba.kml').replace('Zona Centro', 'Zona Ação São João'),
      'latin1',
    );
    const fields = { ...base(), fluxos: ['ip'] };
    const created = await postProjeto(
      `${formBody(fields)}&arquivoIP=${percentEncoded(latin1)}&kml=${percentEncoded(zonas)}`,
    );
    expect(created.statusCode, created.body.slice(0, 300)).toBe(201);
    const body = created.json() as {
      zonas: { label: string }[];
      pontosIP: { idConcessionaria: string; idCircuito: string }[];
    };
    expect(body.pontosIP).toMatchObject([
      { idConcessionaria: 'São João', idCircuito: 'Circuito “A” – Ação' },
    ]);
    expect(body.zonas.map((zona) => zona.label)).toContain('Zona Ação São João');

    // Raw Latin-1 bytes in a form body were decoded as UTF-8 before anyone could tell: refused, not mojibake.
    const before = await stored();
    const raw = Buffer.concat([Buffer.from(`${formBody({ ...base(), fluxos: ['ip'] })}&arquivoIP=`), latin1]);
    await expectRefused(
      () => postProjeto(raw),
      [400],
      /^Arquivo de pontos IP: O arquivo tem caracteres ilegíveis/,
      'raw Latin-1',
    );
    expect(await stored()).toEqual(before);
    await expectStillServing();
  });

  it('refuses point files that are binary, garbled, hold a 1 MB value or weigh 25 or 50 MB', async () => {
    const before = await stored();
    const lptHeader = 'os;nome;cpf;email;telefone1;propriedade;comunidade;municipio;polo;regional\n';
    const cases: [string, Record<string, string>, RegExp, number][] = [
      ['binary garbage', { arquivoIP: garbage(64 * 1024) }, /^Arquivo de pontos IP: Linha \d+: /, 400],
      [
        'an image (NUL bytes)',
        { arquivoIP: fakeJpeg(4096).toString('latin1') },
        /^Arquivo de pontos IP: O arquivo não é um arquivo de texto/,
        400,
      ],
      [
        'UTF-16 without its byte order mark',
        { arquivoIP: Buffer.from('-49.27;-25.43;A;B\n', 'utf16le').toString('latin1') },
        /^Arquivo de pontos IP: O arquivo não é um arquivo de texto/,
        400,
      ],
      [
        'U+FFFD',
        { arquivoIP: '-49.27;-25.43;S\uFFFDo Jo\uFFFDo;B\n' },
        /^Arquivo de pontos IP: O arquivo tem caracteres ilegíveis/,
        400,
      ],
      [
        'a 1 MB id',
        { arquivoIP: `-49.27;-25.43;${'A'.repeat(1024 * 1024)};B\n` },
        /^Arquivo de pontos IP: Linha 1: a coluna 3 tem mais de 500 caracteres\.$/,
        400,
      ],
      [
        'a 1 MB name in LPT Agiltec',
        { arquivoLPTv2: `${lptHeader}1;${'N'.repeat(1024 * 1024)};1;e;t;p;c;m;p;r\n` },
        /^Arquivo LPT Agiltec: Linha 2: a coluna 2 tem mais de 500 caracteres\.$/,
        400,
      ],
      [
        'a 1 MB value in the JSON field',
        {
          pontosIP: JSON.stringify([
            { coordenadas: [-25.43, -49.27], idConcessionaria: 'A'.repeat(1024 * 1024) },
          ]),
        },
        /^pontosIP, ponto 1: O texto deve ter no máximo 500 caracteres\.$/,
        400,
      ],
    ];
    for (const [what, file, message, status] of cases) {
      const payload = formBody({ ...base(), ...file });
      await expectRefused(() => postProjeto(payload), [status], message, what);
    }
    // Big files as raw bodies, repeating an encoded line (URLSearchParams would take seconds to build them).
    const repeated = (field: string, header: string, line: string, megabytes: number) =>
      `${formBody(base())}&${field}=${encodeURIComponent(header)}${encodeURIComponent(line).repeat((megabytes * 1024 * 1024) / line.length)}`;
    const over = repeated('arquivoFiscalizacao', 'x;y\n', '677000;7185000\n', 25);
    await expectRefused(
      () => postProjeto(over),
      [400],
      /^Arquivo de fiscalização: O arquivo de pontos excede o tamanho máximo de 20 MB\.$/,
      '25 MB',
    );
    const huge = repeated('arquivoIP', '', '-49.27;-25.43;A;B\n', 50);
    await expectOverBodyLimit(huge, before);
  });

  it('answers path tricks in every id with a Portuguese 400 or 404, never a file, never a 500', async () => {
    const before = await stored();
    const tricks = [
      '..',
      '..%2F..%2F..%2Fetc%2Fpasswd',
      '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      '..%5c..%5cwindows%5cwin.ini',
      '%252e%252e%252f',
      `${registroId}%00`,
      '%00',
      'x'.repeat(5000),
      '%E0%A4%A',
      '%C0%AE%C0%AE%2F',
    ];
    const withId = [
      (id: string) => `/api/projeto/${id}`,
      (id: string) => `/api/projeto/getByCliente/${id}`,
      (id: string) => `/api/projeto/${id}/datas`,
      (id: string) => `/api/projeto/${id}/mapa`,
      (id: string) => `/api/projeto/${id}/estatistica`,
      (id: string) => `/api/cliente/${id}`,
      (id: string) => `/api/user/${id}`,
      (id: string) => `/api/fotos/${id}/0`,
      (id: string) => `/api/fotos/${registroId}/${id}`,
      (id: string) => `/api/registro/${id}`,
      (id: string) => `/api/unidade/${id}/fotos`,
      (id: string) => `/api/ip/getByZona?id=${id}`,
      (id: string) => `/api/ip/${id}`,
      (id: string) => `/api/fiscalizacao/${id}/kml`,
      (id: string) => `/api/unidade/${id}/kml`,
      (id: string) => `/api/extrator/${id}`,
      (id: string) => `/api/extrator/${projeto._id}/${id}`,
      (id: string) => `/api/relatorio/${id}`,
      (id: string) => `/api/relatorio/${projeto._id}/${id}`,
      (id: string) => `/api/ip/getByData?nomeProjeto=${id}&data=2026-11-20`,
    ];
    for (const route of withId) {
      for (const trick of tricks) {
        const url = route(trick);
        const methods = /^\/api\/(projeto|cliente|user)\/[^/]*$/.test(url)
          ? (['GET', 'PUT', 'DELETE'] as const)
          : (['GET'] as const);
        for (const method of methods) {
          const send = () =>
            ctx.app.inject({
              method,
              url,
              headers: { cookie: admin },
              ...(method === 'PUT' ? { payload: {} } : {}),
            });
          await expectRefused(send, [400, 404], undefined, `${method} ${url.slice(0, 80)}`);
        }
      }
    }
    // The photo route reads only what a record names, from the store, by content hash.
    const photo = await ctx.app.inject({
      method: 'GET',
      url: `/api/fotos/${registroId}/0`,
      headers: { cookie: tecnico },
    });
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/jpeg');
    expect(await stored()).toEqual(before);
    expect(photoFiles().every((file) => /^[0-9a-f]{2}[/\\][0-9a-f]{64}$/.test(file))).toBe(true);
    await expectStillServing();
    expect(
      (await ctx.app.inject({ method: 'GET', url: `/api/user/${usuarioId}`, headers: { cookie: admin } }))
        .statusCode,
    ).toBe(200);
  });

  it('refuses photo file names holding a path or control characters, storing no byte', async () => {
    const before = await stored();
    const names = [
      '../../etc/passwd',
      '..\\..\\x.jpg',
      '/etc/cron.d/x',
      '0/../../x.jpg',
      '..',
      'a\u0001.jpg',
      'x'.repeat(300),
    ];
    for (const name of names) {
      const send = () =>
        uploadRecord(ctx.app, 'unidade', unidade(), { fotos: [fakeJpeg()], cookie: tecnico, names: [name] });
      await expectRefused(send, [400], /^Nome de arquivo de foto inválido\.$/, name.slice(0, 40));
    }
    expect(await stored()).toEqual(before);
    // A device's own names still land in their slots.
    const ok = await uploadRecord(ctx.app, 'unidade', unidade(), {
      fotos: [fakeJpeg()],
      cookie: tecnico,
      names: ['2.jpg'],
    });
    expect(ok.statusCode).toBe(201);
    expect((ok.json() as { fotos: string[] }).fotos).toEqual([expect.stringMatching(/\/2$/)]);
  });

  it('serves a JPEG with a script in its metadata only as an image; refuses SVG and a 100-megapixel PNG', async () => {
    const script = Buffer.from('<script>alert(1)</script><html><body onload="alert(2)">');
    const segment = (marker: number, payload: Buffer) =>
      Buffer.concat([
        Buffer.from([0xff, marker, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]),
        payload,
      ]);
    const jpeg = fakeJpeg();
    const withComment = Buffer.concat([jpeg.subarray(0, 2), segment(0xfe, script), jpeg.subarray(2)]);
    const withExif = Buffer.concat([
      jpeg.subarray(0, 2),
      segment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), script])),
      jpeg.subarray(2),
    ]);
    for (const photo of [withComment, withExif]) {
      const response = await uploadRecord(ctx.app, 'unidade', unidade(), { fotos: [photo], cookie: tecnico });
      expect(response.statusCode, response.body.slice(0, 200)).toBe(201);
      const [url] = (response.json() as { fotos: string[] }).fotos;
      const served = await ctx.app.inject({ method: 'GET', url: url ?? '', headers: { cookie: tecnico } });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/jpeg');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.headers['content-security-policy']).toMatch(/script-src 'self'/);
      expect(served.rawPayload.equals(photo)).toBe(true);
    }

    const before = await stored();
    const chunk = (type: string, data: Buffer) =>
      Buffer.concat([Buffer.alloc(4, 0), Buffer.from(type, 'latin1'), data, Buffer.alloc(4, 0)]).fill(
        data.length,
        3,
        4,
      );
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(12_000, 0);
    ihdr.writeUInt32BE(8_400, 4);
    ihdr.set([8, 2, 0, 0, 0], 8);
    const png100mp = Buffer.concat([
      Buffer.from('89504e470d0a1a0a', 'hex'),
      chunk('IHDR', ihdr),
      Buffer.from('0000000049454e44ae426082', 'hex'),
    ]);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const cases: [Buffer, RegExp][] = [
      [png100mp, /^A foto tem 12000×8400 pixels: o máximo é 64 megapixels\.$/],
      [svg, /^O arquivo enviado não é uma imagem\.$/],
    ];
    for (const [photo, message] of cases) {
      const send = () => uploadRecord(ctx.app, 'unidade', unidade(), { fotos: [photo], cookie: tecnico });
      await expectRefused(send, [415], message);
    }
    expect(await stored()).toEqual(before);
    await expectStillServing();
  });

  it('refuses oversized fields and deep nesting in records and back-office forms', async () => {
    const before = await stored();
    const megabyte = 'x'.repeat(1024 * 1024);
    const json = (method: 'POST' | 'PUT', url: string, payload: unknown) =>
      ctx.app.inject({
        method,
        url,
        headers: { cookie: admin },
        payload: payload as Record<string, unknown>,
      });
    const raw = (url: string, payload: string) =>
      ctx.app.inject({
        method: 'POST',
        url,
        headers: { cookie: admin, 'content-type': 'application/json' },
        payload,
      });
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const cases: [string, () => Promise<Answer>, number, RegExp][] = [
      [
        'record: a 1 MB observação',
        () => uploadRecord(ctx.app, 'unidade', unidade({ observacao: megabyte }), { cookie: tecnico }),
        413,
        /^Um campo do registro excede o tamanho máximo de 64 KB\.$/,
      ],
      [
        'record: an observação of 60 KB',
        () =>
          uploadRecord(ctx.app, 'unidade', unidade({ observacao: 'x'.repeat(60_000) }), { cookie: tecnico }),
        400,
        /^O texto deve ter no máximo 2000 caracteres\.$/,
      ],
      [
        'record: a number of 50,000 digits',
        () => uploadRecord(ctx.app, 'unidade', unidade({ numero: '9'.repeat(50_000) }), { cookie: tecnico }),
        400,
        /^O número deve ter no máximo 10 dígitos\.$/,
      ],
      [
        'tree: a height of 60,000 zeros and a one',
        () =>
          uploadRecord(
            ctx.app,
            'arvore',
            { ...unidade(), altura: `${'0'.repeat(60_000)}1` },
            { cookie: tecnico },
          ),
        400,
        /^A altura deve ter no máximo 20 algarismos\.$/,
      ],
      [
        'project: a 1 MB os in the LPT Agiltec JSON field',
        () =>
          postProjeto(
            formBody({ ...base(), pontosLPTv2: JSON.stringify([{ os: megabyte, nome: 'Fulano' }]) }),
          ),
        400,
        /^pontosLPTv2, ponto 1: O texto deve ter no máximo 500 caracteres\.$/,
      ],
      [
        'client: a 1 MB name',
        () => json('POST', '/api/cliente', { nome: megabyte }),
        413,
        /excede o tamanho/,
      ],
      [
        'client: a 500-character name',
        () => json('POST', '/api/cliente', { nome: 'x'.repeat(500) }),
        400,
        /^O nome do cliente deve ter no máximo 200 caracteres\.$/,
      ],
      [
        'client: 100,000 nested lists',
        () => raw('/api/cliente', `{"nome":${nested(100_000)}}`),
        400,
        /^A requisição tem níveis de aninhamento demais\.$/,
      ],
      [
        'client edit: 100,000 nested lists',
        () =>
          ctx.app.inject({
            method: 'PUT',
            url: `/api/cliente/${clienteId}`,
            headers: { cookie: admin, 'content-type': 'application/json' },
            payload: `{"nome":${nested(100_000)}}`,
          }),
        400,
        /^A requisição tem níveis de aninhamento demais\.$/,
      ],
      [
        'user: a 1 MB first name',
        () =>
          json('POST', '/api/user', {
            login: 'hostil',
            firstName: megabyte,
            password: 'senha-longa-1',
            passwordConfirmation: 'senha-longa-1',
            roles: ['administrador'],
          }),
        413,
        /excede o tamanho/,
      ],
      [
        'user: a 300-character login',
        () =>
          json('POST', '/api/user', {
            login: 'l'.repeat(300),
            firstName: 'Fulano',
            password: 'senha-longa-1',
            passwordConfirmation: 'senha-longa-1',
            roles: ['administrador'],
          }),
        400,
        /O login deve ter no máximo 100 caracteres\./,
      ],
      [
        'project: a 1 MB name',
        () => postProjeto(formBody({ ...base(), nome: megabyte })),
        400,
        /^O nome do projeto deve ter no máximo 200 caracteres\.$/,
      ],
      [
        'project: zones nested 100,000 deep',
        () => postProjeto(formBody({ ...base(), zonas: nested(100_000) })),
        400,
        /^A requisição tem níveis de aninhamento demais\.$/,
      ],
      [
        'log: 1 MB',
        () =>
          ctx.app.inject({
            method: 'POST',
            url: '/api/logger',
            headers: { cookie: tecnico },
            payload: { message: megabyte },
          }),
        413,
        /excede o tamanho/,
      ],
    ];
    for (const [what, send, status, message] of cases) {
      await expectRefused(send, [status], message, what);
    }
    expect(await stored()).toEqual(before);
    const cliente = await ctx.app.inject({
      method: 'GET',
      url: `/api/cliente/${clienteId}`,
      headers: { cookie: admin },
    });
    expect(cliente.json()).toMatchObject({ nome: 'Copel' });
    await expectStillServing();
  });

  it('keeps every field of a multipart record whole: a value over 64 KB is refused, not cut', async () => {
    const before = await stored();
    const body = multipart(unidade({ complemento1: 'y'.repeat(70 * 1024) }));
    const send = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/unidade',
        headers: { ...body.headers, cookie: tecnico },
        payload: body.payload,
      });
    await expectRefused(send, [413], /^Um campo do registro excede o tamanho máximo de 64 KB\.$/);
    expect(await stored()).toEqual(before);
  });
});
