// The API documentation (issue 13): an OpenAPI 3 document made by @fastify/swagger from the app's own route table,
// each route described by the declaration it was registered from (domain/src/api, server/src/contract.ts): the zod
// schemas it parses its input with (converted by fastify-type-provider-zod), what it answers on success (checked
// against real answers by server/test/openapi.test.ts), its roles read from its `access.allow` guard, and the error
// shape of errors.ts. The schemas are documentation only: they are never put in a route's `schema`, so Fastify
// validates nothing and the routes keep answering bad input with their Portuguese messages (parseInput). Served to
// administradores at /api/docs.
import fs from 'node:fs';
import swagger from '@fastify/swagger';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';
import type { Allow, Endpoint } from '@novus/domain/api/contract';
import * as api from '@novus/domain/api/docs';
import { ROLES, type Role } from '@novus/domain/roles';
import { z } from '@novus/domain/zod';
import { type Access, routeRoles } from './auth/access.ts';
import { route, SENT } from './contract.ts';
import { AUTH_COOKIE } from './auth/routes.ts';

/** Every error answer of the API (errors.ts and app.ts's error handler). */
export const errorSchema = z
  .object({
    message: z.string().describe('O problema, em português.'),
    errors: z
      .array(z.object({ msg: z.string() }))
      .optional()
      .describe('Um item por problema de validação (400) ou conflito (409).'),
  })
  .describe('Erro');

/** A file download or a stream: bytes, not JSON. */
const binaryAnswer = z.string().meta({ format: 'binary' });

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Requisição inválida (message em português; errors com um item por problema).',
  401: 'Sessão expirada ou inexistente.',
  403: 'O usuário não tem permissão para esse recurso.',
  404: 'Recurso não encontrado.',
  409: 'Conflito com um registro existente.',
  413: 'Conteúdo grande demais.',
  415: 'Tipo de conteúdo não suportado.',
  429: 'Tentativas demais; aguarde.',
  503: 'Banco de dados indisponível; tente novamente em instantes.',
};

/** Who may call a route that no `allow` guards: anyone, or any signed-in user (checked in the handler). */
type OpenTo = Exclude<Allow, readonly Role[]>;

/** Who may call a route, as the documentation states it. */
export function rolesText(roles: readonly Role[] | undefined, open: OpenTo | undefined): string {
  if (roles === undefined)
    return open === 'sessão' ? 'Qualquer usuário com sessão.' : 'Público (sem sessão).';
  if (roles.length === 0) return 'Qualquer usuário com sessão.';
  return `Papéis: ${roles.join(', ')}.`;
}

const zodTransform = createJsonSchemaTransform({
  skipList: [],
  // A refinement or transform has no JSON Schema: document the rest rather than fail.
  zodToJsonConfig: { unrepresentable: 'any' },
});

type TransformInput = Parameters<typeof zodTransform>[0];

/** Builds a route's documented schema from its declaration and its `allow` guard; everything outside /api/ is hidden. */
function transform(input: TransformInput) {
  const route = input.route;
  const url = input.url;
  if (!url.startsWith('/api/')) return { schema: { hide: true }, url };
  const method = Array.isArray(route.method) ? route.method[0] : route.method;
  // a route registered without a declaration gets the generic fallbacks below (the test refuses one)
  const declared = route.config?.endpoint;
  const open = typeof declared?.allow === 'string' ? declared.allow : undefined;
  const guarded = routeRoles(route.preHandler);
  const roles: readonly Role[] = guarded === undefined ? [] : guarded.length === 0 ? ROLES : guarded;
  const hasParams = url.includes('/:');
  const errors = new Set<number>([400, 503, ...(declared?.errors ?? [])]);
  if (guarded !== undefined) {
    errors.add(401);
    errors.add(403);
  }
  if (hasParams) errors.add(404);
  const ok: Endpoint['ok'] = declared?.ok ?? { status: 200, description: 'Resposta.' };
  const response: Record<string, unknown> = {};
  // A 204 has no body: set on the converted schema below, as the zod transform wants a schema per status.
  if (ok.status !== 204) {
    // Without a documented answer a JSON route says nothing of its body (the test refuses that).
    const schema = ok.answer ?? (ok.produces ? binaryAnswer : z.unknown());
    response[ok.status] = {
      description: ok.description,
      content: { [ok.produces ?? 'application/json']: { schema } },
    };
  }
  for (const status of [...errors].sort()) {
    const special = declared?.errorAnswers?.[status];
    response[status] = {
      description: special?.description ?? ERROR_DESCRIPTIONS[status] ?? 'Erro.',
      content: { 'application/json': { schema: special?.answer ?? errorSchema } },
    };
  }
  const who = rolesText(guarded, open);
  const documented = zodTransform({
    ...input,
    schema: {
      summary: declared?.summary ?? `${method} ${url}`,
      description: [who, declared?.description].filter(Boolean).join('\n\n'),
      tags: [declared?.tag ?? 'outros'],
      ...(declared?.body ? { body: declared.body } : {}),
      ...(declared?.consumes ? { consumes: [...declared.consumes] } : {}),
      ...(declared?.query ? { querystring: declared.query } : {}),
      response,
      'x-roles': roles,
      ...(guarded === undefined ? {} : { security: [{ sessao: [] }] }),
      'x-access': guarded === undefined ? (open ?? 'público') : 'papéis',
      // The swagger schema type knows no `x-` extensions nor zod schemas in place of JSON Schema; the zod
      // transform converts the latter, and swagger copies the former onto the operation.
    } as TransformInput['schema'],
  });
  if (ok.status === 204) {
    // @fastify/swagger documents a response of type 'null' without content.
    const converted = documented.schema as { response?: Record<string, unknown> };
    converted.response = {
      [ok.status]: { type: 'null', description: ok.description },
      ...converted.response,
    };
  }
  return documented;
}

/** Starts collecting the route table for the document; register before any route. */
export async function registerOpenapi(app: FastifyInstance): Promise<void> {
  // The server's own package.json: its version is the API's.
  const { version } = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Novus API',
        description:
          'API do Novus. A sessão é um cookie httpOnly aberto por POST /api/auth/login. ' +
          'Todo erro responde `{ message }` em português (e `errors: [{ msg }]` nos de validação).',
        version,
      },
      components: {
        securitySchemes: { sessao: { type: 'apiKey', in: 'cookie', name: AUTH_COOKIE } },
      },
    },
    hideUntagged: false,
    transform,
  });
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

interface Operation {
  summary?: string;
  description?: string;
  'x-roles'?: string[];
  requestBody?: unknown;
  parameters?: { name: string; in: string }[];
  responses?: Record<string, { description?: string }>;
}

/** A plain HTML page of the document (no script: the Content-Security-Policy stays as strict as everywhere). */
export function docsPage(document: { paths?: Record<string, Record<string, Operation>> }): string {
  const rows = Object.entries(document.paths ?? {}).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const params = (op.parameters ?? []).map((p) => `${p.name} (${p.in})`).join(', ');
      const responses = Object.entries(op.responses ?? {})
        .map(([status, r]) => `${status}: ${r.description ?? ''}`)
        .join('<br>');
      return `<tr><td><code>${escapeHtml(method.toUpperCase())}</code></td><td><code>${escapeHtml(path)}</code></td>
<td>${escapeHtml(op.summary ?? '')}<br><small>${escapeHtml(op.description ?? '')}</small></td>
<td>${escapeHtml(params)}${op.requestBody ? `${params ? '<br>' : ''}corpo` : ''}</td><td>${responses}</td></tr>`;
    }),
  );
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><title>Novus — documentação da API</title>
<style>body{font-family:sans-serif;margin:1rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px;vertical-align:top}</style>
</head><body><main><h1>Novus — documentação da API</h1>
<p>O documento completo (OpenAPI 3), com os esquemas de entrada, de resposta e de erro: <a href="/api/docs/openapi.json">openapi.json</a>.</p>
<table><caption>Rotas da API</caption><thead><tr><th scope="col">Método</th><th scope="col">Rota</th><th scope="col">Descrição e papéis</th><th scope="col">Entrada</th><th scope="col">Respostas</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table></main></body></html>`;
}

/** GET /api/docs (the page) and /api/docs/openapi.json, for administradores. */
export const docsRoutes: FastifyPluginAsync<{ access: Access }> = async (app, { access }) => {
  // The document is OpenAPI 3 (registerOpenapi), which is the shape docsPage reads.
  route(app, access, api.docsPage, async ({ reply }) => {
    void reply
      .type('text/html; charset=utf-8')
      .send(docsPage(app.swagger() as Parameters<typeof docsPage>[0]));
    return SENT;
  });
  route(app, access, api.openapiDocument, async () => app.swagger() as OpenapiDocument);
};

// what @fastify/swagger builds with openapi 3 (registerOpenapi)
type OpenapiDocument = {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, unknown>;
  [key: string]: unknown;
};
