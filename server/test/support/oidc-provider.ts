// A real OpenID Provider for the tests of the sign-in with the company's account (issue 42): panva's oidc-provider
// (certified), on 127.0.0.1, with a client for Novus and a directory of accounts the test enables and disables. Its
// development login pages take any password for an enabled account, as a directory would take the right one.
// `tamper` rewrites the next ID token the token endpoint gives, signed again with the provider's own key, as a
// provider with a wrong clock or a token meant for another client would send it.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, decodeProtectedHeader, exportJWK, importJWK, SignJWT, type JWK } from 'jose';
import Provider from 'oidc-provider';

export const OIDC_CLIENT = { id: 'novus', secret: 'segredo-do-novus-no-provedor' };

export interface TestProvider {
  issuer: string;
  /** The directory: accounts that may sign in (the login claim is the account's id). */
  accounts: Set<string>;
  /** Rewrites the claims of the next ID token issued, then goes back to normal. */
  tamper: ((claims: Record<string, unknown>) => Record<string, unknown>) | undefined;
  /** Goes through the provider's pages as `account` from Novus's redirect: the callback URL it sends back to. */
  signIn(authorizationUrl: string, account: string): Promise<URL>;
  close(): Promise<void>;
}

export async function startTestProvider(publicUrl: string): Promise<TestProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'chave-1', alg: 'RS256', use: 'sig' } as JWK;
  const signingKey = await importJWK(jwk, 'RS256');
  const accounts = new Set<string>();

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_CLIENT.id,
        client_secret: OIDC_CLIENT.secret,
        redirect_uris: [new URL('api/auth/oidc/callback', publicUrl).href],
        post_logout_redirect_uris: [new URL('login', publicUrl).href],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [jwk] },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      IdToken: 600,
      Interaction: 600,
      Grant: 3600,
      Session: 3600,
    },
    async renderError(ctx, out) {
      ctx.type = 'json';
      ctx.body = out;
    },
    cookies: { keys: ['chave-dos-cookies-do-provedor'] },
    claims: { openid: ['sub'], profile: ['preferred_username', 'name'], email: ['email'] },
    // the profile's claims in the ID token itself, as Entra ID and Keycloak put preferred_username there
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    async findAccount(_ctx, id) {
      if (!accounts.has(id)) return undefined;
      return {
        accountId: id,
        claims: async () => ({ sub: id, preferred_username: id, name: id, email: `${id}@empresa.test` }),
      };
    },
    // Novus is a first party: no consent page
    async loadExistingGrant(ctx) {
      const { client, session } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid profile email');
      await grant.save();
      return grant;
    },
  });

  const state: TestProvider = {
    issuer,
    accounts,
    tamper: undefined,
    signIn: (url, account) => signIn(issuer, url, account, publicUrl, accounts.has(account)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as { id_token?: unknown } | undefined;
    if (ctx.path !== '/token' || !state.tamper || typeof body?.id_token !== 'string') return;
    const claims = state.tamper({ ...decodeJwt(body.id_token) });
    state.tamper = undefined;
    const { kid } = decodeProtectedHeader(body.id_token);
    ctx.body = {
      ...body,
      id_token: await new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: kid ?? 'chave-1' })
        .sign(signingKey),
    };
  });
  server.on('request', provider.callback());
  server.on('connection', (socket) => socket.unref());
  return state;
}

/**
 * Follows the provider's redirects with its cookies, submitting its login page, until it sends to Novus; an account
 * the directory does not enable is refused there (access_denied back to Novus).
 */
async function signIn(
  issuer: string,
  start: string,
  account: string,
  publicUrl: string,
  enabled: boolean,
): Promise<URL> {
  const cookies = new Map<string, string>();
  let url = new URL(start);
  let body: URLSearchParams | undefined;
  for (let step = 0; step < 12; step += 1) {
    const response = await fetch(url, {
      method: body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(body ? { body: body.toString() } : {}),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    body = undefined;
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url);
      if (url.href.startsWith(publicUrl)) return url;
      continue;
    }
    const page = await response.text();
    const uid = /\/interaction\/([^/?"]+)/.exec(url.pathname)?.[1];
    if (response.status !== 200 || !uid || !page.includes('name="login"')) {
      throw new Error(`provider stopped at ${url.href} (${response.status}): ${page.slice(0, 300)}`);
    }
    if (step > 3) throw new Error(`provider asked again for ${account}`);
    // a disabled account: the directory refuses it, and the provider sends the browser back with access_denied
    if (!enabled) {
      url = new URL(`/interaction/${uid}/abort`, issuer);
      continue;
    }
    url = new URL(`/interaction/${uid}`, issuer);
    body = new URLSearchParams({ prompt: 'login', login: account, password: 'senha-do-diretorio' });
  }
  throw new Error('provider: too many steps');
}
