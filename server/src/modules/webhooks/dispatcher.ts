// The webhooks' dispatcher, one per server process: it takes due deliveries from the outbox (webhook_entregas) with
// FOR UPDATE SKIP LOCKED under a lease, so processes on one database never send the same one at once, sends each
// outside any transaction (signed, to the address its guard checked, 10 s at most) and records the outcome: a 2xx
// delivers; anything else is retried with exponential backoff and jitter until 24 hours have passed. It wakes on
// the trigger's NOTIFY (a change just committed) and polls for retries falling due.
import type dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { EventoWebhook } from '@novus/domain/api/webhooks';
import { flowOf } from '@novus/domain/flows/registry';
import type { Database, Queryable } from '../../db/database.ts';
import { getRegistro, listColetas } from '../registros/queries.ts';
import { registroJson } from '../registros/routes.ts';
import {
  AddressRefused,
  checkedAddresses,
  pinnedLookup,
  type Resolver,
  systemResolver,
} from './address-guard.ts';
import { type Devida, recordEntregue, recordFalha, takeDevidas } from './queries.ts';
import {
  assinatura,
  HEADER_ASSINATURA,
  HEADER_ENTREGA,
  HEADER_EVENTO,
  HEADER_TIMESTAMP,
} from './signature.ts';

/** The trigger of migration 0016 notifies this channel when a committed change made deliveries. */
export const CANAL_WEBHOOKS = 'novus_webhooks';

/** The event in X-Novus-Evento: header values are ASCII, so without accents or spaces (the body has the words). */
export const EVENTO_NO_CABECALHO: Record<EventoWebhook, string> = {
  'registro criado': 'registro.criado',
  'registro alterado': 'registro.alterado',
  revisão: 'revisao',
};

export interface WebhookOptions {
  /** WEBHOOKS_ALLOW_PRIVATE=1: deliveries may go to loopback and private addresses (tests, a receiver on the LAN). */
  allowPrivate: boolean;
  /** How a host name becomes addresses (the system's DNS; tests give a table). */
  resolve: Resolver;
  /** Deliveries in flight at once in this process. */
  concurrency: number;
  /** How often due deliveries are looked for when no NOTIFY wakes the dispatcher (retries falling due). */
  pollMs: number;
  /** How long a taken delivery is held: past it, a process that died while sending leaves it to another. */
  leaseMs: number;
  /** The most a receiver may take to answer. */
  timeoutMs: number;
  /** The first retry's delay, doubled on each attempt up to maxRetryMs; each drawn between half and all of it. */
  retryMs: number;
  maxRetryMs: number;
  /** Retries end this long after the change (or its 'Reenviar'): the delivery then fails for good. */
  janelaMs: number;
  onError: (error: unknown) => void;
}

export const WEBHOOK_DEFAULTS: Omit<WebhookOptions, 'allowPrivate' | 'onError'> = {
  resolve: systemResolver,
  concurrency: 8,
  pollMs: 2000,
  leaseMs: 60_000,
  timeoutMs: 10_000,
  retryMs: 30_000,
  maxRetryMs: 60 * 60_000,
  janelaMs: 24 * 60 * 60_000,
};

/** The delay before the retry after attempt `tentativas` (1 for the first): exponential, capped, with jitter. */
export function retryDelay(
  tentativas: number,
  options: Pick<WebhookOptions, 'retryMs' | 'maxRetryMs'>,
): number {
  const full = Math.min(options.retryMs * 2 ** Math.min(tentativas - 1, 30), options.maxRetryMs);
  // Half of it fixed, half random: receivers that failed together are not all called again at the same instant.
  return Math.round(full / 2 + (Math.random() * full) / 2);
}

/** The record as the record endpoints answer it, now; undefined when it no longer exists. */
export async function registroPayload(
  db: Queryable,
  id: string,
): Promise<Record<string, unknown> | undefined> {
  const row = await getRegistro(db, id);
  if (!row) return undefined;
  const flow = flowOf(row.fluxo);
  const coletas = flow.lifecycle === 'coleta' ? [] : await listColetas(db, [row.id]);
  return registroJson(flow, row, coletas);
}

type Outcome = { ok: true; status: number } | { ok: false; status: number | null; erro: string };

/** The Portuguese of a request that got no answer. */
function networkError(error: unknown, timeoutMs: number): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (error instanceof Error && error.message === 'timeout') return `Sem resposta em ${timeoutMs / 1000} s.`;
  if (code === 'ECONNREFUSED') return 'Conexão recusada.';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'Conexão interrompida.';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'Endereço inalcançável.';
  if (code?.startsWith('ERR_TLS') || code?.includes('CERT')) return `Certificado TLS inválido (${code}).`;
  return `Falha de rede (${code ?? (error instanceof Error ? error.message : 'desconhecida')}).`;
}

export class WebhookDispatcher {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly aborts = new Set<AbortController>();
  private readonly agents = {
    http: new http.Agent({ keepAlive: true }),
    https: new https.Agent({ keepAlive: true }),
  };
  private timer: NodeJS.Timeout | null = null;
  private filling: Promise<void> | null = null;
  private again = false;
  private closed = false;
  private stopListening: (() => Promise<void>) | null = null;

  constructor(
    private readonly db: Database,
    private readonly options: WebhookOptions,
  ) {}

  async start(): Promise<void> {
    try {
      // A listener that was away may have missed notifications: look at once when it is back.
      this.stopListening = await this.db.listen(CANAL_WEBHOOKS, () => this.wake(), {
        lost: () => undefined,
        restored: () => this.wake(),
      });
    } catch (error) {
      // The database is away now: the poll finds the deliveries once it is back.
      this.options.onError(error);
    }
    this.wake();
  }

  /** Looks for due deliveries now (a change committed, a send finished, 'Reenviar'). */
  wake(): void {
    if (this.closed) return;
    if (this.filling) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.stopListening?.().catch(() => undefined);
    // A send cut off here is not recorded: its lease ends and a process that runs takes it again (same id).
    for (const abort of this.aborts) abort.abort();
    await this.filling;
    await Promise.allSettled([...this.inFlight]);
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), ms);
    // A pending poll never keeps a process that is shutting down alive.
    this.timer.unref();
  }

  private tick(): void {
    this.timer = null;
    if (this.closed || this.filling) return;
    this.filling = this.fill()
      .catch((error: unknown) => this.options.onError(error))
      .finally(() => {
        this.filling = null;
        if (this.closed) return;
        const now = this.again;
        this.again = false;
        this.schedule(now ? 0 : this.options.pollMs);
      });
  }

  /** Takes as many due deliveries as there are free places and starts sending each. */
  private async fill(): Promise<void> {
    const free = this.options.concurrency - this.inFlight.size;
    if (free <= 0) return;
    const devidas = await takeDevidas(this.db, free, this.options.leaseMs);
    for (const devida of devidas) {
      const sending: Promise<void> = this.deliver(devida)
        .catch((error: unknown) => this.options.onError(error))
        .finally(() => {
          this.inFlight.delete(sending);
          this.wake();
        });
      this.inFlight.add(sending);
    }
    // A full batch: more may be due.
    if (devidas.length === free) this.again = true;
  }

  private async deliver(devida: Devida): Promise<void> {
    const registro = await registroPayload(this.db, devida.registro);
    if (!registro) {
      await recordFalha(this.db, devida, {
        statusHttp: null,
        erro: 'O registro não existe mais.',
        retryMs: 0,
        janelaMs: this.options.janelaMs,
        definitiva: true,
      });
      return;
    }
    const body = JSON.stringify({
      id: devida.id,
      evento: devida.evento,
      projeto: devida.projeto,
      registro,
      em: devida.em.toISOString(),
    });
    const outcome = await this.post(devida, body);
    if (this.closed) return;
    if (outcome.ok) {
      await recordEntregue(this.db, devida, outcome.status);
      return;
    }
    await recordFalha(this.db, devida, {
      statusHttp: outcome.status,
      erro: outcome.erro,
      retryMs: retryDelay(devida.tentativas, this.options),
      janelaMs: this.options.janelaMs,
      definitiva: false,
    });
  }

  /** One POST to the address the guard checked: its outcome, never a throw for what the receiver did. */
  private async post(devida: Devida, body: string): Promise<Outcome> {
    const url = new URL(devida.url);
    let address: dns.LookupAddress | undefined;
    try {
      [address] = await checkedAddresses(url, this.options.resolve, this.options.allowPrivate);
    } catch (error) {
      if (error instanceof AddressRefused) return { ok: false, status: null, erro: error.motivo };
      throw error;
    }
    if (!address) return { ok: false, status: null, erro: 'Endereço sem IP.' };
    const timestamp = Math.floor(Date.now() / 1000);
    const secure = url.protocol === 'https:';
    const abort = new AbortController();
    this.aborts.add(abort);
    const { timeoutMs } = this.options;
    try {
      return await new Promise<Outcome>((resolve) => {
        const request = (secure ? https : http).request(
          url,
          {
            method: 'POST',
            agent: secure ? this.agents.https : this.agents.http,
            lookup: pinnedLookup(address),
            signal: abort.signal,
            headers: {
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
              'user-agent': 'Novus-Webhooks/1',
              [HEADER_EVENTO]: EVENTO_NO_CABECALHO[devida.evento],
              [HEADER_ENTREGA]: devida.id,
              [HEADER_TIMESTAMP]: String(timestamp),
              [HEADER_ASSINATURA]: assinatura(devida.segredo, timestamp, body),
            },
          },
          (response) => {
            const status = response.statusCode ?? 0;
            // The answer's body is not read, only drained so the connection can be used again.
            response.resume();
            response.on('end', () => {
              clearTimeout(timer);
              resolve(
                status >= 200 && status < 300
                  ? { ok: true, status }
                  : { ok: false, status, erro: `Resposta HTTP ${status}.` },
              );
            });
            response.on('error', (error) => {
              clearTimeout(timer);
              resolve({ ok: false, status, erro: networkError(error, timeoutMs) });
            });
          },
        );
        const timer = setTimeout(() => request.destroy(new Error('timeout')), timeoutMs);
        request.on('error', (error) => {
          clearTimeout(timer);
          resolve({ ok: false, status: null, erro: networkError(error, timeoutMs) });
        });
        request.end(body);
      });
    } finally {
      this.aborts.delete(abort);
    }
  }
}
