// A cookie-authenticated write is accepted only from the app's own origin: a cross-site form post gets 403.
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export async function rejectCrossSite(request: FastifyRequest): Promise<void> {
  if (SAFE_METHODS.has(request.method)) return;
  const fetchSite = request.headers['sec-fetch-site'];
  if (typeof fetchSite === 'string' && fetchSite !== 'same-origin' && fetchSite !== 'none') throw crossSite();
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== 'null') {
    let originHost: string;
    try {
      originHost = new URL(origin).host;
    } catch {
      throw crossSite();
    }
    const hosts = [request.headers.host, request.headers['x-forwarded-host']].filter(
      (host): host is string => typeof host === 'string',
    );
    if (!hosts.includes(originHost)) throw crossSite();
  } else if (origin === 'null') {
    throw crossSite();
  }
}

function crossSite(): AppError {
  return new AppError(403, 'Requisição de outra origem recusada.');
}
