// Sign-in with the company's account (OpenID Connect, issue 42): the provider's settings from the environment and
// its configuration (discovery, keys), read once and read again after a failure. openid-client does the protocol:
// the authorization code flow with PKCE, state and nonce, and the ID token's checks (issuer, audience, expiry, the
// signature by the provider's JWKS).
import * as client from 'openid-client';

export interface OidcConfig {
  /** OIDC_ISSUER: the provider's issuer URL (its /.well-known/openid-configuration is read from it). */
  issuer: URL;
  /** OIDC_CLIENT_ID, OIDC_CLIENT_SECRET: Novus's registration at the provider (no secret: a public client). */
  clientId: string;
  clientSecret: string | undefined;
  /** OIDC_NOME: the words of the login page's button. */
  nome: string;
  /** OIDC_CLAIM_LOGIN: the ID token's claim equal to a Novus user's login (case-insensitive). */
  claimLogin: string;
  /** PUBLIC_URL: where people reach Novus; the callback is PUBLIC_URL/api/auth/oidc/callback. */
  publicUrl: URL;
}

export const OIDC_NOME_PADRAO = 'Entrar com a conta da empresa';
const SCOPE = 'openid profile email';

/** The provider's settings, or undefined when OIDC_ISSUER is not set; a half-set or bad value stops the start. */
export function oidcConfig(env: NodeJS.ProcessEnv = process.env): OidcConfig | undefined {
  const issuer = env.OIDC_ISSUER?.trim();
  if (!issuer) return undefined;
  const clientId = env.OIDC_CLIENT_ID?.trim();
  const publicUrl = env.PUBLIC_URL?.trim();
  if (!clientId || !publicUrl) {
    throw new Error(
      'OIDC_ISSUER pede também OIDC_CLIENT_ID e PUBLIC_URL (o endereço em que o Novus é acessado).',
    );
  }
  return {
    issuer: httpUrl('OIDC_ISSUER', issuer),
    clientId,
    clientSecret: env.OIDC_CLIENT_SECRET || undefined,
    nome: env.OIDC_NOME?.trim() || OIDC_NOME_PADRAO,
    claimLogin: env.OIDC_CLAIM_LOGIN?.trim() || 'preferred_username',
    publicUrl: httpUrl('PUBLIC_URL', publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`),
  };
}

function httpUrl(name: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} inválido: "${value}". Informe um endereço http(s).`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`${name} inválido: "${value}". Informe um endereço http(s).`);
  }
  return url;
}

/** Plain HTTP only to this machine (a provider in the tests, or Keycloak on the same host). */
function loopback(url: URL): boolean {
  return ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

export class OidcLogin {
  private configuration: Promise<client.Configuration> | undefined;

  constructor(readonly settings: OidcConfig) {}

  /** Where the provider sends the browser back. */
  get callbackUrl(): URL {
    return new URL('api/auth/oidc/callback', this.settings.publicUrl);
  }

  /** A page of Novus, from PUBLIC_URL (the proxy's address, not the one this process listens on). */
  page(path: string): URL {
    return new URL(path.replace(/^\/+/, ''), this.settings.publicUrl);
  }

  /** The provider's metadata and keys, discovered once; a failed discovery is tried again by the next sign-in. */
  discover(): Promise<client.Configuration> {
    this.configuration ??= (async () => {
      const { issuer, clientId, clientSecret } = this.settings;
      const auth = clientSecret ? client.ClientSecretPost(clientSecret) : client.None();
      return client.discovery(issuer, clientId, clientSecret, auth, {
        ...(issuer.protocol === 'http:' && loopback(issuer)
          ? { execute: [client.allowInsecureRequests] }
          : {}),
        timeout: 10,
      });
    })();
    this.configuration.catch(() => {
      this.configuration = undefined;
    });
    return this.configuration;
  }

  /** A new attempt: its secrets, and the provider's page the browser goes to. */
  async start(): Promise<{ estado: string; nonce: string; verificador: string; url: URL }> {
    const configuration = await this.discover();
    const estado = client.randomState();
    const nonce = client.randomNonce();
    const verificador = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.callbackUrl.href,
      scope: SCOPE,
      state: estado,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(verificador),
      code_challenge_method: 'S256',
    });
    return { estado, nonce, verificador, url };
  }

  /**
   * The callback's code exchanged at the provider (with the attempt's verifier) and its ID token checked: the
   * token's claims, and the ID token itself (the provider's logout may ask for it). Throws on any failure.
   */
  async finish(
    search: string,
    attempt: { estado: string; nonce: string; verificador: string },
  ): Promise<{ claims: Record<string, unknown>; idToken: string | undefined }> {
    const configuration = await this.discover();
    const current = new URL(this.callbackUrl);
    current.search = search;
    const tokens = await client.authorizationCodeGrant(configuration, current, {
      pkceCodeVerifier: attempt.verificador,
      expectedState: attempt.estado,
      expectedNonce: attempt.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error('no ID token');
    return { claims, idToken: tokens.id_token };
  }

  /** The provider's logout page, when it has one, back to Novus's login after. */
  async logoutUrl(idToken: string | undefined): Promise<URL | undefined> {
    const configuration = await this.discover();
    if (!configuration.serverMetadata().end_session_endpoint) return undefined;
    return client.buildEndSessionUrl(configuration, {
      post_logout_redirect_uri: this.page('login').href,
      ...(idToken ? { id_token_hint: idToken } : {}),
    });
  }

  /** Whether the provider has a logout page (known once discovered). */
  async hasLogout(): Promise<boolean> {
    return Boolean((await this.discover()).serverMetadata().end_session_endpoint);
  }
}
