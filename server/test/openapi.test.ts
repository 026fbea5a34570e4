// The API documentation (issue 13): every /api route of the built app is in the OpenAPI document with its roles,
// inputs and error shape; the document is valid OpenAPI 3; only administradores read it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { FastifyInstance } from 'fastify';
import type { OpenAPIV3 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { TokenService } from '../src/auth/tokens.ts';
import { collectRoutes } from './support/route-table.ts';
import {
  createTestContext,
  createUser,
  loginCookie,
  TEST_SECRET,
  type TestContext,
} from './support/test-app.ts';

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
    // Each operation has its own summary (ROUTE_DOCS), not the generic fallback, and states who may call it.
    const undocumented = api.filter((route) => {
      const [method = '', url = ''] = route.split(' ');
      const op = operation(method, url);
      return (
        op.summary === route ||
        !/^(Papéis: |Público|Qualquer usuário com sessão)/.test(op.description ?? '') ||
        !Array.isArray((op as { 'x-roles'?: unknown })['x-roles'])
      );
    });
    expect(undocumented, 'routes without a summary or roles in ROUTE_DOCS').toEqual([]);
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
