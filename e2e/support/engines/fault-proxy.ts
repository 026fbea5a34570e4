// A proxy in front of the journeys' server, the origin the browser sees: it passes everything, or refuses every
// connection (the server gone, as a phone out of signal meets it), or lets an upload reach the server and then drops
// its answer (a response lost on the way back). Faults made outside the browser work the same in every engine:
// Firefox over WebDriver BiDi and WebKitGTK over classic WebDriver offer no common way to cut the network.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Which request's answer is dropped once: a method and a path. */
export interface Drop {
  method: string;
  path: RegExp;
}

export class FaultProxy {
  /** 'down': every connection is closed unanswered, before a byte of the request is read. */
  down = false;
  private drops: Drop[] = [];
  /** The requests whose answers were dropped, as 'POST /api/poste'. */
  readonly dropped: string[] = [];
  private readonly server: http.Server;
  private address = '';

  private constructor(private readonly upstream: URL) {
    this.server = http.createServer((request, response) => this.forward(request, response));
    // A refused connection drops its socket unanswered: nothing to report.
    this.server.on('clientError', (_error, socket) => socket.destroy());
  }

  /** Listens on a free port of 127.0.0.1 and forwards to `target` (an http:// origin). */
  static async start(target: string): Promise<FaultProxy> {
    const proxy = new FaultProxy(new URL(target));
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    const { port } = proxy.server.address() as AddressInfo;
    proxy.address = `http://127.0.0.1:${port}`;
    return proxy;
  }

  /** The origin the browser uses. */
  get url(): string {
    return this.address;
  }

  private forward(request: http.IncomingMessage, response: http.ServerResponse): void {
    if (this.down) {
      request.socket.destroy();
      return;
    }
    const drop = this.takeDrop(request.method ?? 'GET', request.url ?? '/');
    const forwarded = http.request(
      {
        host: this.upstream.hostname,
        port: this.upstream.port,
        method: request.method,
        path: request.url,
        headers: request.headers,
      },
      (answer) => {
        if (drop) {
          // the server has answered: what it stored is stored, and the phone never hears of it
          answer.resume();
          answer.once('end', () => {
            this.dropped.push(`${request.method} ${request.url}`);
            response.socket?.destroy();
          });
          return;
        }
        response.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(response);
      },
    );
    forwarded.once('error', () => response.socket?.destroy());
    request.pipe(forwarded);
  }

  /** The next request matching `drop` reaches the server, and its answer is dropped. */
  dropNextAnswer(drop: Drop): void {
    this.drops.push(drop);
  }

  private takeDrop(method: string, url: string): boolean {
    const index = this.drops.findIndex((drop) => drop.method === method && drop.path.test(url));
    if (index < 0) return false;
    this.drops.splice(index, 1);
    return true;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
