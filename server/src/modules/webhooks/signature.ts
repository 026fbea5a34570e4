// How a delivery is signed (README 'Webhooks'): X-Novus-Assinatura is `sha256=` and the hex HMAC-SHA256, keyed with
// the webhook's secret, of `<X-Novus-Timestamp>.<body>`. The timestamp (Unix seconds) inside the signed text lets
// a receiver refuse an old delivery replayed by someone who recorded it.
import crypto from 'node:crypto';

export const HEADER_EVENTO = 'x-novus-evento';
export const HEADER_ENTREGA = 'x-novus-entrega';
export const HEADER_TIMESTAMP = 'x-novus-timestamp';
export const HEADER_ASSINATURA = 'x-novus-assinatura';

export function assinatura(segredo: string, timestamp: number, body: string): string {
  return `sha256=${crypto.createHmac('sha256', segredo).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** What a receiver does: the signature recomputed and compared in constant time. */
export function assinaturaConfere(
  segredo: string,
  timestamp: string,
  body: string,
  recebida: string,
): boolean {
  const esperada = Buffer.from(assinatura(segredo, Number(timestamp), body));
  const dada = Buffer.from(recebida);
  return /^\d+$/.test(timestamp) && esperada.length === dada.length && crypto.timingSafeEqual(esperada, dada);
}

/** A secret for a webhook whose administrador typed none: 32 random bytes. */
export function novoSegredo(): string {
  return `whsec_${crypto.randomBytes(32).toString('base64url')}`;
}

/** The secret as lists show it: its last four characters. */
export function segredoMascarado(segredo: string): string {
  return `••••${segredo.slice(-4)}`;
}
