// The webhooks' guard against server-side request forgery: a webhook's URL is an administrador's, but the request
// leaves from inside our network, so its host is resolved before every send and refused when any address it names
// is not a public unicast one (loopback, private, link-local with 169.254.169.254, unique-local, unspecified,
// carrier-grade NAT, reserved...), unless WEBHOOKS_ALLOW_PRIVATE=1. The request then connects to the address that
// was checked (pinnedLookup), never to what a second resolution might answer (DNS rebinding).
import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

export const ENDERECO_INTERNO =
  'A URL aponta para um endereço interno (local, de rede privada ou link-local): use um endereço público.';
export const ENDERECO_DESCONHECIDO = 'O endereço da URL não foi encontrado (DNS): confira a URL.';

/** Resolves a host name to every address it has (dns.lookup with all: true, or a test's table). */
export type Resolver = (hostname: string) => Promise<dns.LookupAddress[]>;

export const systemResolver: Resolver = (hostname) =>
  dns.promises.lookup(hostname, { all: true, verbatim: true });

/** Why a URL may not be called: its host is internal, or has no address. */
export class AddressRefused extends Error {
  constructor(readonly motivo: typeof ENDERECO_INTERNO | typeof ENDERECO_DESCONHECIDO) {
    super(motivo);
  }
}

/**
 * Whether an address is one the internet routes to a host of someone else: ipaddr.js names every special range
 * (an IPv4 written as IPv6, ::ffff:127.0.0.1, is checked as the IPv4 it is), and only 'unicast' is public.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/** A URL's host as a name or an address (without an IPv6 literal's brackets). */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/**
 * The addresses a request to `url` may connect to: all of its host's, checked. Throws AddressRefused when one of
 * them is internal (and that is not allowed) or the name has none.
 */
export async function checkedAddresses(
  url: URL,
  resolve: Resolver,
  allowPrivate: boolean,
): Promise<dns.LookupAddress[]> {
  const host = hostOf(url);
  const family = net.isIP(host);
  let addresses: dns.LookupAddress[];
  if (family !== 0) {
    addresses = [{ address: host, family }];
  } else {
    try {
      addresses = await resolve(host);
    } catch {
      throw new AddressRefused(ENDERECO_DESCONHECIDO);
    }
  }
  if (addresses.length === 0) throw new AddressRefused(ENDERECO_DESCONHECIDO);
  // Any internal address refuses the name: a name that leads into our network at all is not a receiver's.
  if (!allowPrivate && addresses.some((entry) => !isPublicAddress(entry.address))) {
    throw new AddressRefused(ENDERECO_INTERNO);
  }
  return addresses;
}

/** A `lookup` for http.request that answers the address already checked, whatever the name resolves to now. */
export function pinnedLookup(address: dns.LookupAddress): net.LookupFunction {
  return (_hostname, options, callback) => {
    // Node asks for every address (options.all) when it tries them in turn (autoSelectFamily); the callback then
    // takes the list, which LookupFunction's single-address type does not say.
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (error: null, addresses: dns.LookupAddress[]) => void)(null, [address]);
      return;
    }
    callback(null, address.address, address.family);
  };
}
