// The route table of a built app, collected through buildApp's `onRoute` option, and which route answered the
// last request (so a test knows its request reached the route it meant, not a neighbour with a looser pattern).
import type { onRequestHookHandler, RouteOptions } from 'fastify';

export interface RouteTable {
  /** Pass as buildApp's `onRoute`. */
  onRoute(route: RouteOptions): void;
  /** Every route as `METHOD /url` (one entry per method), in the order the app added them. */
  readonly routes: string[];
  /** `METHOD /url` of the route that took the last request, or undefined when none matched (404 handler). */
  matched(): string | undefined;
  /** Forgets the last match; call before each request. */
  reset(): void;
}

export function collectRoutes(): RouteTable {
  const routes: string[] = [];
  let last: string | undefined;
  const record: onRequestHookHandler = (request, _reply, done) => {
    last = `${request.method} ${request.routeOptions.url ?? ''}`;
    done();
  };
  return {
    routes,
    onRoute(route) {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) routes.push(`${method} ${route.url}`);
      const existing = route.onRequest;
      route.onRequest = [...(existing ? (Array.isArray(existing) ? existing : [existing]) : []), record];
    },
    matched: () => last,
    reset() {
      last = undefined;
    },
  };
}
