// An archive at a URL, read by HTTP ranges (issue 23: 'A project may also point at a PMTiles URL that the server
// reads with range requests'). The server fetches what an administrador names, so the URL must not reach this
// server's own network (SSRF): every connection's address is checked as it is resolved — a loopback, private,
// link-local or otherwise internal address is refused unless MAPA_BASE_ALLOW_PRIVATE=1 — and redirects are
// followed only through the same check.
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { RangeResponse, Source } from 'pmtiles';
import { ArchiveReadError } from '../../storage/blob-store.ts';
import { MapaBaseInvalido } from './archive.ts';

export const ENDERECO_INTERNO =
  'A URL aponta para um endereço interno (local ou de rede privada): use a URL pública do arquivo PMTiles.';
export const SEM_INTERVALOS =
  'O servidor da URL não responde por intervalos (Range): hospede o arquivo PMTiles num servidor que aceite.';

/** Addresses a URL of the internet never needs: this host, private networks, link-local, reserved. */
const INTERNAL = (() => {
  const list = new net.BlockList();
  for (const [address, prefix] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['224.0.0.0', 3],
  ] as const)
    list.addSubnet(address, prefix, 'ipv4');
  for (const [address, prefix] of [
    ['::', 128],
    ['::1', 128],
    ['fc00::', 7],
    ['fe80::', 10],
    ['ff00::', 8],
    ['64:ff9b::', 96],
  ] as const)
    list.addSubnet(address, prefix, 'ipv6');
  return list;
})();

export function isInternalAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return INTERNAL.check(address, 'ipv4');
  if (family !== 6) return true;
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1) is that IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return INTERNAL.check(mapped[1], 'ipv4');
  return INTERNAL.check(address, 'ipv6');
}

class InternalAddressError extends Error {}

/** dns.lookup refusing internal addresses: every connection goes through it, so a rebinding name cannot slip by. */
function guardedLookup(allowPrivate: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const usable = allowPrivate ? addresses : addresses.filter((a) => !isInternalAddress(a.address));
      if (usable.length === 0) return callback(new InternalAddressError(hostname), '', 4);
      if ((options as { all?: boolean }).all) return (callback as unknown as AllCallback)(null, usable);
      const first = usable[0] as dns.LookupAddress;
      return callback(null, first.address, first.family);
    });
  };
}
type AllCallback = (error: Error | null, addresses: dns.LookupAddress[]) => void;

const TIMEOUT_MS = 15_000;
const MAX_REDIRECTS = 5;

/** The archive at `url` read by ranges; `size` is learned from the first answer's Content-Range. */
export class UrlSource implements Source {
  size: number | undefined;

  constructor(
    readonly url: string,
    private readonly allowPrivate: boolean,
  ) {}

  getKey(): string {
    return this.url;
  }

  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    return { data: await this.fetchRange(this.url, offset, length, 0) };
  }

  /** Throws MapaBaseInvalido (422) when the URL's host is internal and that is not allowed. */
  checkHost(url = this.url): void {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    if (!this.allowPrivate && net.isIP(host) && isInternalAddress(host))
      throw new MapaBaseInvalido(ENDERECO_INTERNO);
  }

  private fetchRange(url: string, offset: number, length: number, redirects: number): Promise<ArrayBuffer> {
    this.checkHost(url);
    const target = new URL(url);
    const client = target.protocol === 'https:' ? https : http;
    return new Promise<ArrayBuffer>((resolve, reject) => {
      const request = client.get(
        target,
        {
          headers: { range: `bytes=${offset}-${offset + length - 1}`, 'accept-encoding': 'identity' },
          lookup: guardedLookup(this.allowPrivate),
          timeout: TIMEOUT_MS,
        },
        (response) => {
          const status = response.statusCode ?? 0;
          const location = response.headers.location;
          if (status >= 300 && status < 400 && location) {
            response.resume();
            if (redirects >= MAX_REDIRECTS)
              return reject(new MapaBaseInvalido('A URL redireciona vezes demais.'));
            const next = new URL(location, target).toString();
            this.fetchRange(next, offset, length, redirects + 1).then(resolve, reject);
            return;
          }
          if (status === 416) {
            response.resume();
            return reject(new ArchiveReadError(`range ${offset}+${length} past the end`));
          }
          if (status === 206) {
            const total = /\/(\d+)$/.exec(response.headers['content-range'] ?? '')?.[1];
            if (total) this.size = Number(total);
          } else if (status === 200 && offset === 0) {
            // No ranges, but the first bytes are the file's first bytes: read those and hang up.
            const declared = Number(response.headers['content-length']);
            if (Number.isFinite(declared) && declared > 0) this.size = declared;
          } else if (status === 200) {
            response.destroy();
            return reject(new MapaBaseInvalido(SEM_INTERVALOS));
          } else {
            response.resume();
            return reject(new MapaBaseInvalido(`A URL do mapa respondeu HTTP ${status}.`));
          }
          const chunks: Buffer[] = [];
          let received = 0;
          response.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            received += chunk.length;
            if (received >= length) {
              response.destroy();
              finish();
            }
          });
          response.on('end', finish);
          response.on('error', (error) => reject(error));
          let done = false;
          function finish() {
            if (done) return;
            done = true;
            resolve(new Uint8Array(Buffer.concat(chunks).subarray(0, length)).buffer);
          }
        },
      );
      request.on('timeout', () => request.destroy(new Error('timeout')));
      request.on('error', (error) => {
        if (error instanceof InternalAddressError) reject(new MapaBaseInvalido(ENDERECO_INTERNO));
        else reject(error);
      });
    });
  }
}

/** The Portuguese 422 for a URL that cannot be read at all (refused, unknown name, timed out). */
export function unreachable(error: unknown): MapaBaseInvalido {
  if (error instanceof MapaBaseInvalido) return error;
  return new MapaBaseInvalido(
    'Não foi possível ler o arquivo PMTiles na URL (o endereço não respondeu): confira a URL e tente de novo.',
  );
}
