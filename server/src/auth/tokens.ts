// Signed session tokens (JWT, HS256) carrying the claims of SPEC.md section 3: nome, roles, zonas.
import crypto from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { SessionClaims } from '@novus/domain/auth';
import { Cifra } from './cifra.ts';

export interface Session extends SessionClaims {
  /** The user's id. */
  sub: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
  /** The token's own id, which logout ends it by (tokens signed before ids were given have none). */
  jti?: string;
}

export class TokenService {
  private readonly key: Uint8Array;
  readonly ttlSeconds: number;

  constructor(
    private readonly secret: string,
    ttlDays: number,
  ) {
    this.key = new TextEncoder().encode(secret);
    this.ttlSeconds = Math.round(ttlDays * 24 * 3600);
  }

  /** A key of the same secret (AUTH_SECRET) for sealing what the database keeps, apart from the tokens' own. */
  cifra(purpose: string): Cifra {
    return new Cifra(this.secret, purpose);
  }

  async sign(userId: string, claims: SessionClaims): Promise<{ token: string; exp: number }> {
    const exp = Math.floor(Date.now() / 1000) + this.ttlSeconds;
    const token = await new SignJWT({ nome: claims.nome, roles: claims.roles, zonas: claims.zonas })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setIssuedAt()
      .setJti(crypto.randomUUID())
      .setExpirationTime(exp)
      .sign(this.key);
    return { token, exp };
  }

  /** The session in a token, or undefined when it is forged, malformed or expired. */
  async verify(token: string): Promise<Session | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return undefined;
      const { nome, roles, zonas } = payload;
      if (typeof nome !== 'string' || !isStringArray(roles) || !isStringArray(zonas)) return undefined;
      const jti = typeof payload.jti === 'string' ? { jti: payload.jti } : {};
      return { sub: payload.sub, exp: payload.exp, nome, roles, zonas, ...jti };
    } catch {
      return undefined;
    }
  }
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
