// The API documentation (issue 13): every /api route of the built app is in the OpenAPI document with its roles,
// inputs, answers and error shape; the document is valid OpenAPI 3; only administradores read it; and real answers
// of the app match the documented answers.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { zipSync } from 'fflate';
import { PENDENTES_FORMATO, PENDENTES_MANIFEST } from '@novus/domain/pendentes';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { OpenAPIV3 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { TokenService } from '../src/auth/tokens.ts';
import { collectRoutes } from './support/route-table.ts';
import {
  createCliente,
  createTestContext,
  createUser,
  FORM,
  fakeJpeg,
  formBody,
  loginCookie,
  multipart,
  PASSWORD,
  sample,
  TEST_SECRET,
  type TestContext,
  uploadRecord,
} from './support/test-app.ts';

/** In the sample zoning's 'Zona Centro' (Curitiba). */
const CENTRO = { lat: -25.435, lng: -49.275 };

/** Fastify's `/api/x/:id` as OpenAPI's `/api/x/{id}`. */
const openapiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe('API documentation', () => {
  let ctx: TestContext;
  let app: FastifyInstance;
  let admin: string;
  let supervisor: string;
  let document: OpenAPIV3.Document;
  const table = collectRoutes();
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-openapi-dist-'));

  beforeAll(async () => {
    ctx = await createTestContext();
    // A web build and a tile folder, so the static routes exist too (they must stay out of the document).
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Novus</title>');
    fs.mkdirSync(path.join(dist, 'tiles'));
    app = await buildApp({
      db: ctx.db,
      tokens: new TokenService(TEST_SECRET, 30),
      blobs: ctx.blobs,
      webDist: dist,
      tilesDir: path.join(dist, 'tiles'),
      onRoute: table.onRoute,
    });
    await app.ready();
    await createUser(ctx.db, { login: 'doc-admin', roles: ['administrador'] });
    await createUser(ctx.db, { login: 'doc-supervisor', roles: ['supervisor'] });
    admin = await loginCookie(app, 'doc-admin');
    supervisor = await loginCookie(app, 'doc-supervisor');
    const response = await app.inject({
      method: 'GET',
      url: '/api/docs/openapi.json',
      headers: { cookie: admin },
    });
    expect(response.statusCode).toBe(200);
    document = response.json<OpenAPIV3.Document>();
  });
  afterAll(async () => {
    await app?.close();
    await ctx?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  const operation = (method: string, url: string) => {
    const op = document.paths[openapiPath(url)]?.[method.toLowerCase() as OpenAPIV3.HttpMethods];
    if (!op) throw new Error(`${method} ${url} missing from the document`);
    return op;
  };

  // OpenAPI 3.0 schemas are JSON Schema with `nullable`, which Ajv reads; formats (uuid, date-time) are checked.
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);

  /** The validator of a route's documented JSON answer with that status. */
  const validator = (method: string, url: string, status: number): ValidateFunction => {
    const response = operation(method, url).responses[status] as OpenAPIV3.ResponseObject | undefined;
    const schema = response?.content?.['application/json']?.schema;
    if (!schema) throw new Error(`${method} ${url} documents no JSON answer for ${status}`);
    return ajv.compile(schema);
  };

  /** Checks a real answer against the document (its status among the documented, its body the schema); its body. */
  const expectDocumented = (method: string, url: string, response: LightMyRequestResponse): unknown => {
    const route = `${method} ${url}`;
    expect(response.statusCode, `${route}: ${response.body}`).toBeLessThan(300);
    expect(response.headers['content-type'], route).toMatch(/^application\/json/);
    // A flow's upload answers 200 instead of 201 when the same record arrives again: the same schema.
    const documented = Object.keys(operation(method, url).responses).find((status) => status.startsWith('2'));
    const check = validator(method, url, Number(documented));
    const body: unknown = response.json();
    check(body);
    expect(check.errors ?? [], `${route} answered outside its documented schema`).toEqual([]);
    return body;
  };

  it('documents every /api route of the app, and nothing outside /api', () => {
    const api = table.routes.filter((route) => !route.startsWith('HEAD ') && route.includes(' /api/'));
    expect(api.length).toBeGreaterThan(30);
    const documented = Object.entries(document.paths).flatMap(([url, item]) =>
      Object.keys(item ?? {})
        .filter((key) => ['get', 'post', 'put', 'delete', 'patch'].includes(key))
        .map((method) => `${method.toUpperCase()} ${url}`),
    );
    const missing = api.filter((route) => {
      const [method = '', url = ''] = route.split(' ');
      return !documented.includes(`${method} ${openapiPath(url)}`);
    });
    expect(missing, 'routes of the app missing from the OpenAPI document').toEqual([]);
    expect(documented.filter((route) => !route.includes(' /api/'))).toEqual([]);
    expect(table.routes).toContain('GET /*');
    // Each operation has its declaration's summary, not the generic fallback, and states who may call it.
    const undocumented = api.filter((route) => {
      const [method = '', url = ''] = route.split(' ');
      const op = operation(method, url);
      return (
        op.summary === route ||
        !/^(Papéis: |Público|Qualquer usuário com sessão)/.test(op.description ?? '') ||
        !Array.isArray((op as { 'x-roles'?: unknown })['x-roles'])
      );
    });
    expect(undocumented, 'routes without a summary or roles from their declaration').toEqual([]);
  });

  it('is a valid OpenAPI 3 document', async () => {
    // validate() dereferences in place: give it a copy.
    await expect(SwaggerParser.validate(structuredClone(document))).resolves.toBeTruthy();
    expect(document.openapi).toMatch(/^3\.0\./);
    // The validator does refuse a broken document (an operation without responses).
    const broken = structuredClone(document);
    delete (broken.paths['/api/cliente']?.post as Partial<OpenAPIV3.OperationObject>).responses;
    await expect(SwaggerParser.validate(broken)).rejects.toThrow();
  });

  it("states each route's roles from its access guard", () => {
    const roles = (method: string, url: string) =>
      (operation(method, url) as { 'x-roles'?: string[] })['x-roles'];
    expect(roles('POST', '/api/cliente')).toEqual(['administrador']);
    expect(roles('GET', '/api/cliente')).toEqual(['administrador', 'supervisor']);
    expect(roles('GET', '/api/registro/:id')).toEqual(['administrador', 'supervisor', 'tecnico']);
    expect(roles('GET', '/api/docs')).toEqual(['administrador']);
    expect(roles('GET', '/api/health')).toEqual([]);
    expect(operation('GET', '/api/health').description).toMatch(/^Público/);
    expect(operation('GET', '/api/auth/me').description).toMatch(/^Qualquer usuário com sessão/);
    expect(operation('POST', '/api/cliente').description).toBe('Papéis: administrador.');
  });

  it('documents the inputs from the zod schemas the routes parse with', () => {
    const body = operation('POST', '/api/cliente').requestBody as OpenAPIV3.RequestBodyObject;
    const schema = body.content['application/json']?.schema as OpenAPIV3.SchemaObject;
    expect(schema.properties).toHaveProperty('nome');
    expect(schema.required).toContain('nome');
    const login = operation('POST', '/api/auth/login').requestBody as OpenAPIV3.RequestBodyObject;
    expect(
      Object.keys((login.content['application/json']?.schema as OpenAPIV3.SchemaObject).properties ?? {}),
    ).toEqual(expect.arrayContaining(['login', 'password']));
    const query = (operation('GET', '/api/relatorio/:projeto/produtividade').parameters ??
      []) as OpenAPIV3.ParameterObject[];
    expect(query.map((p) => `${p.in}:${p.name}`)).toEqual(
      expect.arrayContaining(['path:projeto', 'query:dataInicio', 'query:dataFim']),
    );
    // The files that hold a CSV take its decimal separator (a comma unless ?decimal=ponto).
    for (const [method, url] of [
      ['GET', '/api/extrator/:projeto/:arquivo'],
      ['GET', '/api/relatorio/:projeto/:arquivo'],
      ['GET', '/api/bdgd/:projeto/kml'],
    ] as const) {
      const parameters = (operation(method, url).parameters ?? []) as OpenAPIV3.ParameterObject[];
      expect(
        parameters.map((p) => `${p.in}:${p.name}`),
        url,
      ).toContain('query:decimal');
    }
    const user = operation('POST', '/api/user').requestBody as OpenAPIV3.RequestBodyObject;
    expect((user.content['application/json']?.schema as OpenAPIV3.SchemaObject).properties).toHaveProperty(
      'login',
    );
  });

  it('documents the error shape on every operation', () => {
    const post = operation('POST', '/api/cliente');
    for (const status of ['400', '401', '403']) {
      const response = post.responses[status] as OpenAPIV3.ResponseObject;
      const schema = response.content?.['application/json']?.schema as OpenAPIV3.SchemaObject;
      expect(schema.required, status).toEqual(['message']);
      expect(schema.properties, status).toHaveProperty('message');
      expect(schema.properties, status).toHaveProperty('errors');
    }
    expect(post.responses).toHaveProperty('201');
    expect(operation('GET', '/api/health').responses).not.toHaveProperty('401');
    expect(operation('GET', '/api/cliente/:id').responses).toHaveProperty('404');
    // The health check's 503 says which part fails, in its own shape.
    const health = operation('GET', '/api/health').responses['503'] as OpenAPIV3.ResponseObject;
    const schema = health.content?.['application/json']?.schema as OpenAPIV3.SchemaObject;
    expect(Object.keys(schema.properties ?? {})).toEqual(['status', 'banco', 'fotos']);
  });

  it('documents a real schema for every success answer: JSON answers in detail, files as bytes', () => {
    const vague: string[] = [];
    for (const [url, item] of Object.entries(document.paths)) {
      for (const method of ['get', 'post', 'put', 'delete'] as const) {
        const op = item?.[method];
        if (!op) continue;
        const route = `${method.toUpperCase()} ${url}`;
        const ok = Object.entries(op.responses).filter(([status]) => status.startsWith('2'));
        expect(ok, route).toHaveLength(1);
        const [status, response] = ok[0] as [string, OpenAPIV3.ResponseObject];
        if (status === '204') {
          expect(response.content, route).toBeUndefined();
          continue;
        }
        const content = Object.entries(response.content ?? {});
        expect(content, route).toHaveLength(1);
        const [type, media] = content[0] as [string, OpenAPIV3.MediaTypeObject];
        const schema = media.schema as OpenAPIV3.SchemaObject | undefined;
        if (type !== 'application/json') {
          if (schema?.type !== 'string') vague.push(`${route} (${type})`);
          continue;
        }
        // A schema that says something: a type, or a choice of them; `{}` (z.any, z.unknown) says nothing.
        if (!schema || (schema.type === undefined && !schema.anyOf && !schema.oneOf && !schema.allOf)) {
          vague.push(route);
          continue;
        }
        // Every documented answer is a JSON Schema a validator accepts.
        expect(() => ajv.compile(schema), route).not.toThrow();
      }
    }
    expect(vague, 'success answers without a schema').toEqual([]);
    // The check does see an answer documented as anything.
    const cliente = operation('GET', '/api/cliente').responses['200'] as OpenAPIV3.ResponseObject;
    expect(cliente.content?.['application/json']?.schema).toMatchObject({ type: 'array' });
  });

  it('answers what it documents (real answers checked against the document)', async () => {
    const cookie = (login: string) => loginCookie(app, login);
    // A project as an administrador makes one: zoning, preloaded IP points, and a técnico in 'Zona Centro'.
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: 'doc-admin', password: PASSWORD },
    });
    expectDocumented('POST', '/api/auth/login', login);
    const cliente = await createCliente(app, admin, 'Cliente das respostas');
    const created = await app.inject({
      method: 'POST',
      url: '/api/projeto',
      headers: { ...FORM, cookie: admin },
      payload: formBody({
        nome: 'Projeto das respostas',
        cliente,
        fuso: '22',
        fluxos: ['hc', 'ip'],
        kml: sample('zoneamento-curitiba.kml'),
        pontosIP: JSON.stringify([
          { coordenadas: [CENTRO.lat, CENTRO.lng], idConcessionaria: 'IP-DOC', idCircuito: 'C-1' },
        ]),
      }),
    });
    const projeto = expectDocumented('POST', '/api/projeto', created) as {
      _id: string;
      nome: string;
      zonas: { _id: string; label: string }[];
      pontosIP: { _id: string }[];
    };
    const zona = projeto.zonas.find((item) => item.label === 'Zona Centro')?._id ?? '';
    const tecnicoUser = await createUser(ctx.db, { roles: ['tecnico'], cliente, firstName: 'Doc' });
    await ctx.db.query('INSERT INTO usuario_zonas (usuario, zona) VALUES ($1, $2)', [tecnicoUser.id, zona]);
    const tecnico = await cookie(tecnicoUser.login);
    const dataHora = String(Date.UTC(2026, 10, 20, 14, 30));
    const envelope = { projeto: projeto._id, coordenadas: JSON.stringify(CENTRO), dataHora };
    const unidadeId = crypto.randomUUID();
    const unidade = await uploadRecord(
      app,
      'unidade',
      {
        ...envelope,
        id: unidadeId,
        precisao: '4.5',
        tipoUnidade: 'SDU',
        tipoEdificacao: 'Residencial',
        tipoImovel: 'RESIDENCIAL',
        numero: '120',
        quantidade: '1',
      },
      { fotos: [fakeJpeg()], cookie: tecnico },
    );
    expectDocumented('POST', '/api/unidade', unidade);
    // Collecting the preloaded point: a point's answer carries its collections.
    const ponto = projeto.pontosIP[0]?._id ?? '';
    const ip = await uploadRecord(
      app,
      'ip',
      { ...envelope, id: ponto, possuiIP: 'true' },
      { fotos: [fakeJpeg()], cookie: tecnico },
    );
    expect((expectDocumented('POST', '/api/ip', ip) as { coletas: unknown[] }).coletas).toEqual([]);

    const nome = encodeURIComponent(projeto.nome);
    const periodo = 'dataInicio=2026-11-01&dataFim=2026-11-30';
    const reads: [string, string, string, string?][] = [
      ['GET', '/api/health', '/api/health'],
      ['GET', '/api/config', '/api/config'],
      ['GET', '/api/auth/me', '/api/auth/me', tecnico],
      ['GET', '/api/cliente', '/api/cliente'],
      ['GET', '/api/cliente/:id', `/api/cliente/${cliente}`],
      ['GET', '/api/projeto', '/api/projeto'],
      ['GET', '/api/projeto/:id', `/api/projeto/${projeto._id}`],
      ['GET', '/api/projeto/getByUser', '/api/projeto/getByUser', tecnico],
      ['GET', '/api/projeto/getByCliente/:clienteId', `/api/projeto/getByCliente/${cliente}`],
      ['GET', '/api/projeto/:id/mapa', `/api/projeto/${projeto._id}/mapa`],
      ['GET', '/api/projeto/:nome/estatistica', `/api/projeto/${nome}/estatistica`],
      ['GET', '/api/user', '/api/user'],
      ['GET', '/api/user/:id', `/api/user/${tecnicoUser.id}`],
      ['GET', '/api/auditoria', '/api/auditoria'],
      ['GET', '/api/registro/:id', `/api/registro/${ponto}`],
      ['GET', '/api/unidade/getByZona', `/api/unidade/getByZona?id=${zona}`, tecnico],
      ['GET', '/api/ip/getByZona', `/api/ip/getByZona?id=${zona}`, tecnico],
      ['GET', '/api/ip/:projeto', `/api/ip/${nome}`],
      ['GET', '/api/unidade/getByPeriodo', `/api/unidade/getByPeriodo?nomeProjeto=${nome}&${periodo}`],
      ['GET', '/api/unidade/:id/fotos', `/api/unidade/${unidadeId}/fotos`, tecnico],
      ['GET', '/api/projeto/:id/datas', `/api/projeto/${projeto._id}/datas`],
      ['GET', '/api/extrator/:projeto', `/api/extrator/${projeto._id}?${periodo}`],
      ['GET', '/api/relatorio/:projeto', `/api/relatorio/${projeto._id}?data=2026-11-20`],
      [
        'GET',
        '/api/relatorio/:projeto/produtividade',
        `/api/relatorio/${projeto._id}/produtividade?${periodo}`,
      ],
      ['GET', '/api/docs/openapi.json', '/api/docs/openapi.json'],
    ];
    const answers: Record<string, unknown> = {};
    for (const [method, route, url, as = admin] of reads) {
      const response = await app.inject({ method: 'GET', url, headers: { cookie: as } });
      answers[route] = expectDocumented(method, route, response);
    }
    // The answers hold the data made above, so the schemas were checked against full answers, not empty lists.
    expect(answers['/api/relatorio/:projeto']).toHaveLength(1);
    expect((answers['/api/projeto/:id'] as { pontosIP: unknown[] }).pontosIP).toHaveLength(1);
    expect((answers['/api/projeto/:id/mapa'] as { camadas: unknown[] }).camadas).toHaveLength(2);
    expect(answers['/api/projeto/:nome/estatistica']).toHaveLength(2);
    expect(answers['/api/projeto/getByUser']).toHaveLength(1);
    expect(answers['/api/relatorio/:projeto/produtividade']).toHaveLength(1);
    expect((answers['/api/extrator/:projeto'] as { csv: unknown[] }).csv.length).toBeGreaterThan(0);
    expect(answers['/api/ip/:projeto']).toHaveLength(1);
    expect(answers['/api/unidade/getByPeriodo']).toHaveLength(1);
    expect((answers['/api/auditoria'] as { total: number }).total).toBeGreaterThan(0);

    const existem = await app.inject({
      method: 'POST',
      url: '/api/fotos/existem',
      headers: { cookie: tecnico },
      payload: { hashes: ['0'.repeat(64)] },
    });
    expectDocumented('POST', '/api/fotos/existem', existem);
    const renamed = await app.inject({
      method: 'PUT',
      url: `/api/cliente/${cliente}`,
      headers: { cookie: admin },
      payload: { nome: 'Cliente das respostas (renomeado)' },
    });
    expectDocumented('PUT', '/api/cliente/:id', renamed);
    // A phone's pending records: one imported, one refused.
    const campos = {
      ...envelope,
      id: crypto.randomUUID(),
      tipoUnidade: 'SDU',
      tipoEdificacao: 'Residencial',
    };
    const manifest = {
      formato: PENDENTES_FORMATO,
      versao: 1,
      exportadoEm: Date.now(),
      tecnico: { login: tecnicoUser.login, nome: 'Doc' },
      registros: [
        {
          fluxo: 'hc',
          campos: { ...campos, tipoImovel: 'RESIDENCIAL', numero: '7', quantidade: '1' },
          fotos: [],
        },
        { fluxo: 'hc', campos: { ...campos, id: crypto.randomUUID() }, fotos: [] },
      ],
    };
    const zip = zipSync({ [PENDENTES_MANIFEST]: new TextEncoder().encode(JSON.stringify(manifest)) });
    const body = multipart({}, [
      { field: 'arquivo', filename: 'pendentes.zip', contentType: 'application/zip', data: Buffer.from(zip) },
    ]);
    const imported = await app.inject({
      method: 'POST',
      url: '/api/pendentes/importar',
      headers: { ...body.headers, cookie: admin },
      payload: body.payload,
    });
    const summary = expectDocumented('POST', '/api/pendentes/importar', imported) as { recusados: unknown[] };
    expect(summary).toMatchObject({ criados: 1, recusados: [expect.anything()] });
    const user = await app.inject({
      method: 'DELETE',
      url: `/api/user/${tecnicoUser.id}`,
      headers: { cookie: admin },
    });
    expectDocumented('DELETE', '/api/user/:id', user);
    const logout = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie: tecnico },
    });
    expect(logout.statusCode).toBe(204);
    expect(logout.body).toBe('');
  });

  it('refuses an answer that differs from the documented one', () => {
    const check = validator('GET', '/api/cliente/:id', 200);
    const cliente = { _id: crypto.randomUUID(), nome: 'Copel' };
    expect(check(cliente)).toBe(true);
    expect(check({ _id: cliente._id })).toBe(false);
    expect(check({ ...cliente, extra: 1 })).toBe(false);
    expect(check({ ...cliente, _id: 'não é um uuid' })).toBe(false);
    const user = validator('GET', '/api/user/:id', 200);
    expect(user({ _id: cliente._id, nome: 'x' })).toBe(false);
  });

  it('keeps the Portuguese validation messages (the documented schemas do not validate)', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/cliente',
      headers: { cookie: admin },
      payload: {},
    });
    expect(response.statusCode).toBe(400);
    const message = response.json<{ message: string }>().message;
    expect(message).not.toMatch(/must have required property|body\//);
    const valid = await app.inject({
      method: 'POST',
      url: '/api/cliente',
      headers: { cookie: admin },
      payload: { nome: 'Cliente da documentação' },
    });
    expect(valid.statusCode).toBe(201);
  });

  it('serves a browsable page and the document to administradores only', async () => {
    const page = await app.inject({ method: 'GET', url: '/api/docs', headers: { cookie: admin } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('/api/cliente');
    expect(page.body).toContain('Papéis: administrador.');
    expect(page.body).toContain('href="/api/docs/openapi.json"');
    for (const url of ['/api/docs', '/api/docs/openapi.json']) {
      const none = await app.inject({ method: 'GET', url });
      expect(none.statusCode, url).toBe(401);
      expect(none.json<{ message: string }>().message).toBeTruthy();
      const other = await app.inject({ method: 'GET', url, headers: { cookie: supervisor } });
      expect(other.statusCode, url).toBe(403);
      expect(other.json<{ message: string }>().message).toBeTruthy();
    }
  });
});
