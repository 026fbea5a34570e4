// Builds the Fastify app from its plugins and modules; main.ts opens the database and listens.
import fs from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type RouteOptions,
} from 'fastify';
import * as sistema from '@novus/domain/api/sistema';
import { FLOWS } from '@novus/domain/flows/registry';
import { AUTH_COOKIE, authRoutes } from './auth/routes.ts';
import { segundoFatorRoutes } from './auth/segundo-fator-routes.ts';
import type { OidcLogin } from './auth/oidc.ts';
import { oidcRoutes } from './auth/oidc-routes.ts';
import { compressionConfig, registerCompression } from './compression.ts';
import { createAccess } from './auth/access.ts';
import { rejectCrossSite } from './auth/csrf.ts';
import { LoginLimiter } from './auth/login-limiter.ts';
import { Callers } from './auth/callers.ts';
import { sessionEnded } from './auth/sessions.ts';
import type { TokenService } from './auth/tokens.ts';
import {
  DEFAULT_TILES,
  type MapaBaseConfig,
  mapaBaseConfig,
  type TileConfig,
  webhooksConfig,
} from './config.ts';
import { route } from './contract.ts';
import type { Database } from './db/database.ts';
import { isDatabaseUnavailable } from './db/errors.ts';
import { AppError, badRequest, databaseUnavailable, inspectInput, storageFailure } from './errors.ts';
import { parseFormBody } from './form-body.ts';
import { docsRoutes, registerOpenapi } from './openapi.ts';
import { alteracaoRoutes } from './modules/alteracoes/routes.ts';
import { auditoriaRoutes } from './modules/auditoria/routes.ts';
import { clienteRoutes } from './modules/clientes/routes.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { loggerRoutes } from './modules/logger/routes.ts';
import { projetoRoutes } from './modules/projetos/routes.ts';
import { extratorRoutes } from './modules/export/extrator-routes.ts';
import { relatorioRoutes } from './modules/export/relatorios-routes.ts';
import { mapaRoutes } from './modules/mapa/routes.ts';
import { mapaBaseRoutes } from './modules/mapa-base/routes.ts';
import { PontosLive } from './live/pontos.ts';
import { registroRoutes } from './modules/registros/routes.ts';
import { revisaoRoutes } from './modules/revisao/routes.ts';
import { importPendentesRoutes } from './modules/registros/import-pendentes.ts';
import { PhotoSweeper } from './modules/registros/upload.ts';
import { usuarioRoutes } from './modules/usuarios/routes.ts';
import { WEBHOOK_DEFAULTS, WebhookDispatcher, type WebhookOptions } from './modules/webhooks/dispatcher.ts';
import { webhookRoutes } from './modules/webhooks/routes.ts';
import type { BlobStore } from './storage/blob-store.ts';

export interface AppOptions {
  db: Database;
  tokens: TokenService;
  limiter?: LoginLimiter;
  /** Built web app to serve; omitted in API-only tests. */
  webDist?: string;
  /** Log requests: to stdout, or to `stream` (main.ts: written in the background, logger/stream.ts). */
  logger?: boolean | { stream: { write(line: string): void } };
  trustProxy?: boolean;
  tiles?: TileConfig;
  tilesDir?: string;
  /** Where photo bytes live. */
  blobs: BlobStore;
  /** Serve HTTPS directly (phones need a secure context for the service worker, GPS and camera). */
  https?: { key: Buffer; cert: Buffer };
  /**
   * How long a photo no row refers to stays after it was stored (PhotoSweeper): 0 in one process, as tests run (a
   * failed request's photos go as it ends); main.ts gives PHOTO_SWEEP_GRACE_MINUTES, as other processes on the same
   * photo store may be about to commit a row referring to it, and the store is then swept once the server listens
   * and every grace period after.
   */
  photoGraceMs?: number;
  /** The basemap packages' limit and URL policy; read from the environment (mapaBaseConfig) when omitted. */
  mapaBase?: MapaBaseConfig;
  /** The supervisor map: past how many points the server clusters them (MAPA_PONTOS_NO_NAVEGADOR by default). */
  mapaPontosNoNavegador?: number;
  /** Called for every route as it is added (the authorization sweep collects the route table with it). */
  onRoute?: (route: RouteOptions) => void;
  /** The webhooks' dispatcher: WEBHOOK_DEFAULTS and WEBHOOKS_ALLOW_PRIVATE (webhooksConfig) but for these. */
  webhooks?: Partial<WebhookOptions>;
  /** Compress answers (brotli or gzip, compression.ts); HTTP_COMPRESSION (compressionConfig) when omitted. */
  compression?: boolean;
  /** Sign-in with the company's account (OIDC_ISSUER and the rest, auth/oidc.ts); none when omitted. */
  oidc?: OidcLogin;
}

/** The origins a tile URL template loads from, for the Content-Security-Policy (relative URLs are 'self'). */
function tileOrigins(tiles: TileConfig): string[] {
  return [tiles.street, tiles.satellite, tiles.download ?? ''].flatMap((template) => {
    try {
      const url = new URL(template.replace(/\{[a-z]\}/g, '0'));
      return [url.origin];
    } catch {
      return [];
    }
  });
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const common = {
    logger:
      options.logger === true
        ? { level: 'info' }
        : options.logger
          ? { level: 'info', stream: options.logger.stream }
          : false,
    trustProxy: options.trustProxy ?? false,
    bodyLimit: 1024 * 1024,
    // A path the router cannot decode (a malformed %-escape): Portuguese, as every other bad request.
    frameworkErrors: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
      reply.status(400).send({
        message: error.code === 'FST_ERR_BAD_URL' ? 'Endereço inválido.' : 'Requisição inválida.',
      });
    },
  };
  // Routes and plugins do not depend on the server type, so an HTTPS app is used as the plain one.
  const app = (options.https
    ? Fastify({ ...common, https: options.https })
    : Fastify(common)) as unknown as FastifyInstance;
  const { db, tokens } = options;
  const limiter = options.limiter ?? new LoginLimiter();
  const tiles = options.tiles ?? DEFAULT_TILES;

  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  app.setErrorHandler(errorHandler);
  // Before any route: it compresses the answers of the routes added after it.
  const compression = await registerCompression(app, options.compression ?? compressionConfig());
  // Before any route: the OpenAPI document is made from the routes added from here on.
  await registerOpenapi(app);
  await app.register(helmet, {
    // Phones reach the server over plain http on the local network: never force https here.
    contentSecurityPolicy: {
      directives: {
        upgradeInsecureRequests: null,
        // Photos kept on the device are shown from blob: URLs.
        imgSrc: ["'self'", 'data:', 'blob:', ...tileOrigins(tiles)],
        connectSrc: ["'self'", ...tileOrigins(tiles)],
        // The barcode reader (ZXing) is WebAssembly, served by us: this allows compiling wasm, not eval().
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        // Photo compression runs in a Web Worker made from a blob: URL, off the UI thread.
        workerSrc: ["'self'", 'blob:'],
        // No page of Novus belongs in another site's frame (clickjacking).
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    // HSTS only when this server speaks https itself: over plain http it would mean nothing, and a browser that
    // saw it on the name would refuse the plain-http LAN address phones use.
    strictTransportSecurity: options.https ? { maxAge: 15_552_000, includeSubDomains: false } : false,
    crossOriginEmbedderPolicy: false,
  });
  await app.register(cookie);
  await app.register(formbody, { parser: parseFormBody });
  await app.register(multipart);

  app.decorateRequest('session', undefined);
  app.decorateRequest('actor', undefined);
  app.addHook('onRequest', rejectCrossSite);
  // A NUL in a path segment (%00) names nothing: PostgreSQL text cannot even hold it.
  app.addHook('onRequest', async (request) => {
    if (inspectInput(request.params) === 'nul') throw badRequest('Endereço inválido.');
  });
  // The token's signature and whether its session ended, kept a few seconds per token (auth/callers.ts).
  const callers = new Callers(db);
  app.addHook('onClose', () => callers.close());
  const uploads = new Set(FLOWS.map((flow) => `/api/${flow.apiPath}`));
  callers.forgetAfterWrites(app, (method, url) => {
    const pathname = url.split('?')[0] ?? '';
    return (
      (method === 'POST' && uploads.has(pathname)) ||
      pathname === '/api/fotos/existem' ||
      pathname === '/api/logger'
    );
  });
  app.addHook('onRequest', async (request) => {
    const token = request.cookies[AUTH_COOKIE];
    const session = token
      ? await callers.get(`sessão:${token}`, async () => {
          const verified = await tokens.verify(token);
          return verified && !(await sessionEnded(db, verified)) ? verified : undefined;
        })
      : undefined;
    request.session = session && session.exp * 1000 > Date.now() ? session : undefined;
  });

  await app.register(healthRoutes, { db, blobs: options.blobs });
  // What the app needs to know of this installation; public, so the map works before and after login.
  const oidc = options.oidc ? { nome: options.oidc.settings.nome } : null;
  route(app, null, sistema.getConfig, async () => ({ tiles, oidc }));
  const cifra = tokens.cifra('totp');
  await app.register(authRoutes, { db, tokens, limiter, cifra });
  if (options.oidc) await app.register(oidcRoutes, { db, tokens, oidc: options.oidc });
  const access = createAccess(db, callers);
  await app.register(docsRoutes, { access });
  await app.register(clienteRoutes, { db, access });
  await app.register(projetoRoutes, { db, access, blobs: options.blobs });
  await app.register(usuarioRoutes, { db, access });
  await app.register(segundoFatorRoutes, { db, access, limiter, cifra });
  await app.register(auditoriaRoutes, { db, access });
  const live = new PontosLive(db, (error) => app.log.error({ err: error }, 'live notification failed'));
  const sweeper = new PhotoSweeper(db, options.blobs, {
    graceMs: options.photoGraceMs ?? 0,
    onError: (error) => app.log.error({ err: error }, 'photo sweep failed'),
    onSwept: (report) => app.log.info({ sweep: report }, 'photo store swept'),
  });
  // In the background once listening (an app only injected into, as tests use, never sweeps by itself).
  app.addHook('onListen', async () => sweeper.start());
  app.addHook('onClose', async () => sweeper.close());
  await app.register(registroRoutes, { db, access, blobs: options.blobs, live, callers, sweeper });
  await app.register(revisaoRoutes, { db, access, live });
  await app.register(importPendentesRoutes, { db, access, blobs: options.blobs, sweeper });
  await app.register(alteracaoRoutes, { db, access });
  await app.register(mapaRoutes, {
    db,
    access,
    live,
    ...(options.mapaPontosNoNavegador === undefined
      ? {}
      : { pontosNoNavegador: options.mapaPontosNoNavegador }),
  });
  await app.register(mapaBaseRoutes, {
    db,
    access,
    blobs: options.blobs,
    callers,
    config: options.mapaBase ?? mapaBaseConfig(),
  });
  await app.register(extratorRoutes, { db, access, blobs: options.blobs });
  await app.register(relatorioRoutes, { db, access });
  await app.register(loggerRoutes, { db });
  // Every process delivers webhooks from the outbox while it runs (issue 27).
  const webhooks: WebhookOptions = {
    ...WEBHOOK_DEFAULTS,
    ...webhooksConfig(),
    onError: (error) => app.log.error({ err: error }, 'webhook delivery failed'),
    ...options.webhooks,
  };
  const dispatcher = new WebhookDispatcher(db, webhooks);
  app.addHook('onReady', () => dispatcher.start());
  app.addHook('onClose', () => dispatcher.close());
  await app.register(webhookRoutes, { db, access, dispatcher, options: webhooks });

  // Files from here on: the web build's are compressed once at build (.br, .gz), tiles are images.
  compression.filesFollow();
  if (options.tilesDir) {
    await app.register(fastifyStatic, {
      root: options.tilesDir,
      prefix: '/tiles/',
      decorateReply: false,
      maxAge: '7d',
    });
  }

  const webDist = options.webDist;
  if (webDist && fs.existsSync(path.join(webDist, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      // The .br and .gz copies the web build writes beside each asset (web/scripts/precompress.mjs).
      preCompressed: true,
      setHeaders(reply, filePath) {
        const name = path.basename(filePath);
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          reply.header('Cache-Control', 'public, max-age=31536000, immutable');
        } else if (name === 'sw.js' || name === 'index.html' || name.endsWith('.webmanifest')) {
          reply.header('Cache-Control', 'no-cache');
        }
      },
    });
    // Client-side routes (/backoffice/cliente, /projeto/...) all load the app shell.
    app.get('/*', (request, reply) => {
      const pathname = request.url.split('?')[0] ?? '';
      // A missing file (an old hashed asset, say) is a 404, never the HTML shell under a script's name.
      if (pathname.startsWith('/api/') || /\.[a-z0-9]+$/i.test(pathname)) {
        return reply.status(404).send({ message: 'Recurso não encontrado.' });
      }
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    });
  }

  app.setNotFoundHandler((_request, reply) => {
    reply.status(404).send({ message: 'Recurso não encontrado.' });
  });
  return app;
}

function errorHandler(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply): void {
  if (error instanceof AppError) {
    reply
      .status(error.status)
      .send(error.errors ? { message: error.message, errors: error.errors } : { message: error.message });
    return;
  }
  if (isDatabaseUnavailable(error)) {
    // Not a bug of ours: the database is restarting or out of reach, and the pool reconnects once it is back.
    request.log.warn({ err: error }, 'database unavailable');
    const unavailable = databaseUnavailable();
    reply.status(unavailable.status).header('retry-after', '5').send({ message: unavailable.message });
    return;
  }
  const storage = storageFailure(error);
  if (storage) {
    // The disk, not the request: logged for the operator, answered so the device keeps its copy and retries later.
    request.log.error({ err: error }, 'storage write failed');
    reply.status(storage.status).header('retry-after', '60').send({ message: storage.message });
    return;
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    reply.status(status).send({ message: FASTIFY_MESSAGES[error.code] ?? 'Requisição inválida.' });
    return;
  }
  request.log.error({ err: error });
  reply.status(500).send({ message: 'Erro interno do servidor. Tente novamente mais tarde.' });
}

const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'O conteúdo enviado excede o tamanho permitido.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Tipo de conteúdo não suportado.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'O corpo da requisição está vazio.',
  FST_ERR_CTP_INVALID_JSON_BODY: 'O corpo da requisição não é um JSON válido.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Tamanho do conteúdo inválido.',
  FST_REQ_FILE_TOO_LARGE: 'A foto excede o tamanho máximo de 15 MB.',
  FST_FILES_LIMIT: 'Fotos demais para este registro.',
  FST_PARTS_LIMIT: 'Campos demais no envio.',
  FST_FIELDS_LIMIT: 'Campos demais no envio.',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'O envio deve ser multipart/form-data.',
};
