// Sign-in with the company's account (OpenID Connect, issue 42), registered when OIDC_ISSUER is set:
//   GET /api/auth/oidc/entrar   a new attempt kept in the database (every server reads it), a cookie binding it to
//                               this browser, and the redirect to the provider;
//   GET /api/auth/oidc/callback the attempt taken once, the code exchanged, the ID token checked, the Novus user
//                               whose login is the claim given the same session as a password login;
//   GET /api/auth/oidc/sair     the provider's logout, after Novus's own (POST /api/auth/logout).
// These are browser navigations: a refusal is a 4xx with a page in Portuguese (JSON to a caller that asks for it).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { destinationFor, OIDC_TEXTS } from '@novus/domain/entrada';
import { recordAcessoRecusado } from '../modules/auditoria/queries.ts';
import { escapeXml } from '../modules/export/queries.ts';
import { findUserByLogin } from '../modules/usuarios/queries.ts';
import type { OidcLogin } from './oidc.ts';
import { abrirSessao, type AuthDeps } from './routes.ts';

/** The cookie naming this browser's attempt, and the one keeping the ID token for the provider's logout. */
const ESTADO_COOKIE = 'oidc_estado';
const ID_TOKEN_COOKIE = 'oidc_id_token';
const COOKIE_PATH = '/api/auth/oidc';
/** How long the provider's pages may take: the attempt is refused after. */
const TENTATIVA_MINUTOS = 10;
/** Past this the ID token is not kept (a cookie holds about 4 KB); the provider's logout then goes without it. */
const ID_TOKEN_MAX = 3500;

export async function oidcRoutes(
  app: FastifyInstance,
  { db, tokens, oidc }: Pick<AuthDeps, 'db' | 'tokens'> & { oidc: OidcLogin },
): Promise<void> {
  const cookie = (request: FastifyRequest, maxAge: number) => ({
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: request.protocol === 'https' || oidc.settings.publicUrl.protocol === 'https:',
    maxAge,
  });

  app.get('/api/auth/oidc/entrar', async (request, reply) => {
    let attempt: Awaited<ReturnType<OidcLogin['start']>>;
    try {
      attempt = await oidc.start();
    } catch (error) {
      request.log.warn({ err: error }, 'OIDC discovery failed');
      return refuse(request, reply, 503, OIDC_TEXTS.indisponivel);
    }
    const target = (request.query as { target?: unknown }).target;
    await db.query(
      `DELETE FROM oidc_tentativas WHERE criado_em < now() - interval '${TENTATIVA_MINUTOS} minutes'`,
    );
    await db.query(
      'INSERT INTO oidc_tentativas (estado, nonce, verificador, destino) VALUES ($1, $2, $3, $4)',
      [
        attempt.estado,
        attempt.nonce,
        attempt.verificador,
        destinationFor(typeof target === 'string' ? target : null),
      ],
    );
    reply.setCookie(ESTADO_COOKIE, attempt.estado, cookie(request, TENTATIVA_MINUTOS * 60));
    return reply.redirect(attempt.url.href, 303);
  });

  app.get('/api/auth/oidc/callback', async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const estado = typeof query.state === 'string' ? query.state : undefined;
    const bound = request.cookies[ESTADO_COOKIE];
    reply.clearCookie(ESTADO_COOKIE, { path: COOKIE_PATH });
    // The state must be the one this browser started with, and an attempt is taken once: a forged or replayed
    // callback finds nothing.
    if (estado === undefined || bound === undefined || estado !== bound) {
      return refuse(request, reply, 400, OIDC_TEXTS.tentativaInvalida);
    }
    const rows = await db.query<{ estado: string; nonce: string; verificador: string; destino: string }>(
      `DELETE FROM oidc_tentativas
       WHERE estado = $1 AND criado_em >= now() - interval '${TENTATIVA_MINUTOS} minutes'
       RETURNING estado, nonce, verificador, destino`,
      [estado],
    );
    const attempt = rows[0];
    if (!attempt) return refuse(request, reply, 400, OIDC_TEXTS.tentativaInvalida);
    if (typeof query.error === 'string') return refuse(request, reply, 401, OIDC_TEXTS.naoAutorizada);

    let result: Awaited<ReturnType<OidcLogin['finish']>>;
    try {
      result = await oidc.finish(new URL(request.url, 'http://novus').search, attempt);
    } catch (error) {
      // a used or foreign code, an ID token of another audience or issuer, expired, or badly signed
      request.log.warn({ err: error }, 'OIDC callback refused');
      return refuse(request, reply, 401, OIDC_TEXTS.naoConfirmada);
    }
    const provedor = oidc.settings.issuer.href;
    const login = result.claims[oidc.settings.claimLogin];
    if (typeof login !== 'string' || login.trim() === '') {
      await recordAcessoRecusado(db, {
        login: '',
        motivo: `sem a claim ${oidc.settings.claimLogin}`,
        provedor,
      });
      return refuse(request, reply, 403, OIDC_TEXTS.semLogin);
    }
    const user = await findUserByLogin(db, login.trim());
    if (!user) {
      await recordAcessoRecusado(db, { login, motivo: 'não cadastrado', provedor });
      return refuse(request, reply, 403, OIDC_TEXTS.naoCadastrado);
    }
    await abrirSessao({ db, tokens }, user, request, reply);
    if (result.idToken && result.idToken.length <= ID_TOKEN_MAX) {
      reply.setCookie(ID_TOKEN_COOKIE, result.idToken, cookie(request, tokens.ttlSeconds));
    }
    // The login page takes the session (GET /api/auth/me) and goes on to where the person was going.
    const next = oidc.page('login');
    next.searchParams.set('entrada', 'empresa');
    next.searchParams.set('login', user.login);
    if (attempt.destino !== '/') next.searchParams.set('target', attempt.destino);
    if (await oidc.hasLogout()) next.searchParams.set('sair', '1');
    return reply.redirect(next.href, 303);
  });

  app.get('/api/auth/oidc/sair', async (request, reply) => {
    const idToken = request.cookies[ID_TOKEN_COOKIE];
    reply.clearCookie(ID_TOKEN_COOKIE, { path: COOKIE_PATH });
    let url: URL | undefined;
    try {
      url = await oidc.logoutUrl(idToken);
    } catch (error) {
      request.log.warn({ err: error }, 'OIDC discovery failed');
      return refuse(request, reply, 503, OIDC_TEXTS.indisponivel);
    }
    return reply.redirect((url ?? oidc.page('login')).href, 303);
  });
}

/** The login card's look (the app's theme: its grey, its blue, its error red) without the app's code. */
const PAGE_STYLE =
  'body{margin:0;min-height:100dvh;display:grid;place-items:center;background:#f5f5f5;' +
  'font:16px/1.5 Roboto,system-ui,sans-serif;color:rgba(0,0,0,.87)}' +
  'main{background:#fff;border-radius:4px;box-shadow:0 2px 1px -1px rgba(0,0,0,.2),0 1px 3px rgba(0,0,0,.12);' +
  'padding:24px;margin:16px;max-width:332px;width:calc(100% - 80px)}' +
  'h1{font-size:1.5rem;font-weight:400;margin:0 0 16px}' +
  'p{background:#fdeded;color:#5f2120;border-radius:4px;padding:8px 16px;margin:0 0 16px}' +
  'a{display:block;text-align:center;padding:8px 22px;border-radius:4px;background:#1565c0;color:#fff;' +
  'text-decoration:none;font-weight:500;letter-spacing:.03em}';

/** A refusal: a page for a browser (a link back to the login), the usual JSON for a program. */
function refuse(request: FastifyRequest, reply: FastifyReply, status: number, message: string) {
  reply.header('cache-control', 'no-store');
  if (!(request.headers.accept ?? '').includes('text/html')) return reply.status(status).send({ message });
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8">` +
        `<meta name="viewport" content="width=device-width, initial-scale=1"><title>Novus</title>` +
        `<style>${PAGE_STYLE}</style></head>` +
        `<body><main><h1>Novus</h1><p role="alert">${escapeXml(message)}</p>` +
        `<a href="/login">${escapeXml(OIDC_TEXTS.voltar)}</a></main></body></html>`,
    );
}
