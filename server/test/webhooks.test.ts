// Webhooks (issue 27): an administrador registers a URL per project; a record uploaded reaches a receiver written
// here (node:http on 127.0.0.1) signed with HMAC-SHA256; failures are retried with growing delays until delivered
// once, or until the retry window ends ('falhou'); 'Reenviar' sends again with the same id; a restart loses no
// delivery; and with WEBHOOKS_ALLOW_PRIVATE off, loopback, private and link-local addresses (as literals or names
// resolving to them) are refused at registration and at send.
import crypto from 'node:crypto';
import type dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Entrega, Webhook } from '@novus/domain/api/webhooks';
import { buildApp } from '../src/app.ts';
import { ENDERECO_INTERNO } from '../src/modules/webhooks/address-guard.ts';
import type { WebhookOptions } from '../src/modules/webhooks/dispatcher.ts';
import { assinaturaConfere } from '../src/modules/webhooks/signature.ts';
import { unidadeForm } from './support/fixtures.ts';
import {
  createCookie,
  createFieldProject,
  createTestContext,
  fakeJpeg,
  type TestContext,
  uploadRecord,
} from './support/test-app.ts';

interface Recebida {
  headers: http.IncomingHttpHeaders;
  body: string;
  /** When it arrived (ms). */
  at: number;
}

/** A webhook receiver: answers each request as `responder` says (a status, or 'mudo' to never answer). */
async function receptor() {
  const recebidas: Recebida[] = [];
  const state: { responder: (n: number, recebida: Recebida) => number | 'mudo' } = { responder: () => 200 };
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const recebida = { headers: request.headers, body, at: Date.now() };
      recebidas.push(recebida);
      const answer = state.responder(recebidas.length, recebida);
      if (answer !== 'mudo') response.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo; // listening on TCP: address() is an AddressInfo
  return {
    url: `http://127.0.0.1:${port}/gancho`,
    port,
    recebidas,
    state,
    /** The requests carrying this delivery id. */
    de: (entrega: string) => recebidas.filter((r) => r.headers['x-novus-entrega'] === entrega),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Waits until `check` gives a value (not undefined/false), within `ms`. */
async function waitFor<T>(check: () => Promise<T | undefined | false> | T | undefined | false, ms = 15_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A table of names for the tests' resolver: a name not in it is unknown. */
function resolver(names: Record<string, string>, calls: string[] = []) {
  return async (hostname: string): Promise<dns.LookupAddress[]> => {
    calls.push(hostname);
    const address = names[hostname];
    if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  };
}

/** Quick retries, so the tests see several in seconds. */
const RAPIDO: Partial<WebhookOptions> = { pollMs: 50, retryMs: 200, maxRetryMs: 2000, leaseMs: 5000 };

describe('webhooks (issue 27)', () => {
  let ctx: TestContext;
  /** The app under test: allows 127.0.0.1 (WEBHOOKS_ALLOW_PRIVATE=1), retries quickly. */
  let app: FastifyInstance;
  let admin: string;
  let supervisor: string;
  let tecnico: string;
  let projeto: string;
  let rx: Awaited<ReturnType<typeof receptor>>;

  async function webhookApp(webhooks: Partial<WebhookOptions>): Promise<FastifyInstance> {
    const built = await buildApp({ db: ctx.db, tokens: ctx.tokens, blobs: ctx.blobs, webhooks });
    await built.ready();
    return built;
  }

  /** Stops the app under test and starts another on the same database with these webhook options. */
  async function swap(webhooks: Partial<WebhookOptions>): Promise<void> {
    await app.close();
    app = await webhookApp(webhooks);
  }

  const webhooksNoBanco = async () =>
    (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhooks'))[0]?.n;

  const inject = (on: FastifyInstance, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    on.inject({ method, url, headers: { cookie: admin }, ...(payload ? { payload } : {}) });

  async function cadastrar(
    body: { url: string; eventos?: string[]; segredo?: string },
    on = app,
  ): Promise<Webhook & { segredo: string }> {
    const response = await inject(on, 'POST', `/api/projeto/${projeto}/webhooks`, {
      eventos: ['registro criado', 'registro alterado', 'revisão'],
      ...body,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  async function entregas(webhook: string, on = app): Promise<Entrega[]> {
    const response = await inject(on, 'GET', `/api/webhook/${webhook}/entregas`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  async function excluir(webhook: string) {
    expect((await inject(app, 'DELETE', `/api/webhook/${webhook}`)).statusCode).toBe(200);
  }

  async function enviarUnidade(numero = '7'): Promise<string> {
    const id = crypto.randomUUID();
    const response = await uploadRecord(app, 'unidade', unidadeForm(id, projeto, { numero }), {
      fotos: [fakeJpeg()],
      cookie: tecnico,
    });
    expect(response.statusCode, response.body).toBe(201);
    return id;
  }

  beforeAll(async () => {
    ctx = await createTestContext();
    // The context's own app would deliver too, with the defaults: the tests' apps deliver instead.
    await ctx.app.close();
    app = await webhookApp({ ...RAPIDO, allowPrivate: true });
    const field = await createFieldProject(app, ctx.db, { nome: 'Ganchos', fluxos: ['hc'] });
    ({ admin, projeto, tecnicoCookie: tecnico } = field);
    supervisor = await createCookie(app, ctx.db, { roles: ['supervisor'], cliente: field.cliente });
    rx = await receptor();
  });
  afterAll(async () => {
    await rx?.close();
    await app?.close();
    await ctx?.close();
  });

  it('lets only the administrador manage webhooks, and shows the secret once', async () => {
    const negado = await app.inject({
      method: 'POST',
      url: `/api/projeto/${projeto}/webhooks`,
      headers: { cookie: supervisor },
      payload: { url: rx.url, eventos: ['revisão'] },
    });
    expect(negado.statusCode).toBe(403);
    const lista = await app.inject({
      method: 'GET',
      url: `/api/projeto/${projeto}/webhooks`,
      headers: { cookie: supervisor },
    });
    expect(lista.statusCode).toBe(403);

    const criado = await cadastrar({ url: rx.url, eventos: ['revisão'], segredo: 'um-segredo-bem-comprido' });
    expect(criado).toMatchObject({ url: rx.url, eventos: ['revisão'], segredo: 'um-segredo-bem-comprido' });
    const gerado = await cadastrar({ url: rx.url });
    expect(gerado.segredo).toMatch(/^whsec_[\w-]{43}$/);

    const listados = (await inject(app, 'GET', `/api/projeto/${projeto}/webhooks`)).json<Webhook[]>();
    expect(listados.map((w) => w.segredo)).toEqual(['••••rido', `••••${gerado.segredo.slice(-4)}`]);
    expect(JSON.stringify(listados)).not.toContain('um-segredo-bem-comprido');

    for (const [body, message] of [
      [{ url: 'ftp://exemplo.com/x', eventos: ['revisão'] }, 'Informe a URL do webhook (http ou https).'],
      [{ url: rx.url, eventos: [] }, 'Escolha ao menos um evento.'],
      [{ url: rx.url, eventos: ['apagado'] }, 'Evento inválido.'],
      [{ url: rx.url, eventos: ['revisão'], segredo: 'curto' }, /ao menos 16 caracteres/],
    ] as const) {
      const response = await inject(app, 'POST', `/api/projeto/${projeto}/webhooks`, body);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json<{ message: string }>().message).toMatch(message);
    }
    const semProjeto = await inject(app, 'POST', `/api/projeto/${crypto.randomUUID()}/webhooks`, {
      url: rx.url,
      eventos: ['revisão'],
    });
    expect(semProjeto.statusCode).toBe(404);
    await excluir(criado._id);
    await excluir(gerado._id);
    expect((await inject(app, 'DELETE', `/api/webhook/${criado._id}`)).statusCode).toBe(404);
  });

  it('delivers an uploaded record signed, once, with the record as the record endpoint answers it', async () => {
    const { _id: webhook, segredo } = await cadastrar({ url: rx.url, eventos: ['registro criado'] });
    const antes = rx.recebidas.length;
    const registro = await enviarUnidade('12');
    const [entrega] = await waitFor(async () => {
      const lista = await entregas(webhook);
      return lista[0]?.status === 'entregue' && lista;
    });
    expect(entrega).toMatchObject({
      evento: 'registro criado',
      registro,
      tentativas: 1,
      ultimoStatusHttp: 200,
    });
    const recebidas = rx.recebidas.slice(antes);
    expect(recebidas).toHaveLength(1);
    const [recebida] = recebidas;
    if (!recebida || !entrega) throw new Error('nothing received');

    const { headers, body } = recebida;
    expect(headers['content-type']).toBe('application/json');
    expect(headers['x-novus-evento']).toBe('registro.criado');
    expect(headers['x-novus-entrega']).toBe(entrega._id);
    const timestamp = String(headers['x-novus-timestamp']);
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
    const signature = String(headers['x-novus-assinatura']);
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    // What a receiver does: the HMAC of "<timestamp>.<body>" with the secret.
    const expected = crypto.createHmac('sha256', segredo).update(`${timestamp}.${body}`).digest('hex');
    expect(signature).toBe(`sha256=${expected}`);
    expect(assinaturaConfere(segredo, timestamp, body, signature)).toBe(true);
    expect(assinaturaConfere('outro-segredo-qualquer', timestamp, body, signature)).toBe(false);
    expect(assinaturaConfere(segredo, timestamp, body.replace('"12"', '"13"'), signature)).toBe(false);

    const payload = JSON.parse(body) as Record<string, unknown>;
    expect(Object.keys(payload)).toEqual(['id', 'evento', 'projeto', 'registro', 'em']);
    expect(payload).toMatchObject({ id: entrega._id, evento: 'registro criado', projeto, em: entrega.em });
    const doEndpoint = await inject(app, 'GET', `/api/registro/${registro}`);
    expect(payload.registro).toEqual(doEndpoint.json());
    expect(payload.registro).toMatchObject({ _id: registro, numero: '12', versao: 1 });

    // Another event than the subscribed ones makes no delivery: a review decision.
    const decisao = await app.inject({
      method: 'POST',
      url: `/api/revisao/${registro}`,
      headers: { cookie: supervisor },
      payload: { estado: 'aprovado', versao: 1 },
    });
    expect(decisao.statusCode, decisao.body).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await entregas(webhook)).toHaveLength(1);
    expect(rx.recebidas.slice(antes)).toHaveLength(1);
    await excluir(webhook);
  });

  it('retries with growing delays until the receiver accepts, delivers once, and Reenviar sends again', async () => {
    const { _id: webhook } = await cadastrar({ url: rx.url, eventos: ['registro criado'] });
    // The first three attempts fail: a 500, a 503, a 404.
    const falhas = [500, 503, 404];
    let vez = 0;
    rx.state.responder = () => falhas[vez++] ?? 200;
    const registro = await enviarUnidade();
    const entrega = await waitFor(async () => {
      const [primeira] = await entregas(webhook);
      return primeira?.status === 'entregue' && primeira;
    });
    expect(entrega).toMatchObject({ registro, tentativas: 4, ultimoStatusHttp: 200, ultimoErro: null });
    // No more attempts arrive once delivered.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const tentativas = rx.de(entrega._id);
    expect(tentativas).toHaveLength(4);
    // The same id and the same body every time; each signed anew.
    expect(new Set(tentativas.map((t) => t.body)).size).toBe(1);
    // Retry n comes between half and all of 200 ms × 2^(n-1) after the failure (plus the 50 ms poll).
    const intervalos = tentativas.slice(1).map((t, i) => t.at - (tentativas[i]?.at ?? 0));
    expect(intervalos[0]).toBeGreaterThanOrEqual(90);
    expect(intervalos[1]).toBeGreaterThanOrEqual(190);
    expect(intervalos[2]).toBeGreaterThanOrEqual(390);
    expect(intervalos[2]).toBeGreaterThan(intervalos[0] ?? Infinity);

    const reenvio = await inject(app, 'POST', `/api/webhook/${webhook}/entregas/${entrega._id}/reenviar`);
    expect(reenvio.statusCode, reenvio.body).toBe(200);
    expect(reenvio.json<Entrega>()).toMatchObject({ _id: entrega._id, status: 'pendente' });
    await waitFor(() => rx.de(entrega._id).length === 5);
    const depois = await waitFor(async () => {
      const [primeira] = await entregas(webhook);
      return primeira?.status === 'entregue' && primeira;
    });
    expect(depois.tentativas).toBe(5);
    expect(rx.de(entrega._id)[4]?.body).toBe(tentativas[0]?.body);
    const outro = await inject(
      app,
      'POST',
      `/api/webhook/${webhook}/entregas/${crypto.randomUUID()}/reenviar`,
    );
    expect(outro.statusCode).toBe(404);
    rx.state.responder = () => 200;
    await excluir(webhook);
  });

  it("gives up once the retry window has passed ('falhou'), and a receiver that never answers times out", async () => {
    await swap({ ...RAPIDO, allowPrivate: true, janelaMs: 1500, timeoutMs: 300 });
    const { _id: webhook } = await cadastrar({ url: rx.url, eventos: ['registro criado'] });
    // Odd attempts get a 500, even ones no answer at all.
    rx.state.responder = (n) => (n % 2 === 0 ? 'mudo' : 500);
    const antes = rx.recebidas.length;
    await enviarUnidade();
    const entrega = await waitFor(async () => {
      const [primeira] = await entregas(webhook);
      return primeira?.status === 'falhou' && primeira;
    });
    expect(entrega.tentativas).toBeGreaterThanOrEqual(3);
    expect(entrega.proximaTentativa).toBeNull();
    expect(['Resposta HTTP 500.', 'Sem resposta em 0.3 s.']).toContain(entrega.ultimoErro);
    expect(rx.recebidas.length - antes).toBe(entrega.tentativas);
    // Nothing more once failed.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(rx.recebidas.length - antes).toBe(entrega.tentativas);
    rx.state.responder = () => 200;
    await excluir(webhook);
    await swap({ ...RAPIDO, allowPrivate: true });
  });

  it('loses no delivery across a restart: what was written while no server ran is sent by the next', async () => {
    const { _id: webhook } = await cadastrar({ url: rx.url, eventos: ['registro criado'] });
    // The upload below is answered by a server that sends nothing (no place to send from), as one that stops
    // before its dispatcher comes round...
    await app.close();
    const id = crypto.randomUUID();
    app = await webhookApp({ ...RAPIDO, allowPrivate: true, concurrency: 0 });
    const upload = await uploadRecord(app, 'unidade', unidadeForm(id, projeto), {
      fotos: [fakeJpeg()],
      cookie: tecnico,
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const [escrita] = await ctx.db.query<{ status: string; tentativas: number }>(
      'SELECT status, tentativas FROM webhook_entregas WHERE webhook = $1 AND registro = $2',
      [webhook, id],
    );
    // ...written in the upload's transaction, never sent...
    expect(escrita).toEqual({ status: 'pendente', tentativas: 0 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(rx.recebidas.filter((r) => r.body.includes(id))).toHaveLength(0);
    // ...and the next server on the same database sends it.
    await swap({ ...RAPIDO, allowPrivate: true });
    const [entrega] = await waitFor(async () => {
      const lista = await entregas(webhook);
      return lista[0]?.status === 'entregue' && lista;
    });
    if (!entrega) throw new Error('no delivery');
    expect(rx.de(entrega._id)).toHaveLength(1);
    await excluir(webhook);
  });

  it('connects to the address it checked, not to what the name resolves to later', async () => {
    const calls: string[] = [];
    await swap({
      ...RAPIDO,
      allowPrivate: true,
      resolve: resolver({ 'receptor.exemplo': '127.0.0.1' }, calls),
    });
    // 'receptor.exemplo' exists only in the resolver given: the request reached 127.0.0.1 through it.
    const { _id: webhook } = await cadastrar({ url: `http://receptor.exemplo:${rx.port}/gancho` });
    await enviarUnidade();
    const [entrega] = await waitFor(async () => {
      const lista = await entregas(webhook);
      return lista[0]?.status === 'entregue' && lista;
    });
    if (!entrega) throw new Error('no delivery');
    expect(rx.de(entrega._id)[0]?.headers.host).toBe(`receptor.exemplo:${rx.port}`);
    // Once at registration, once before the send.
    expect(calls).toEqual(['receptor.exemplo', 'receptor.exemplo']);
    await excluir(webhook);
  });

  describe('with WEBHOOKS_ALLOW_PRIVATE off', () => {
    const names: Record<string, string> = {
      'interno.exemplo': '10.0.0.1',
      'metadados.exemplo': '169.254.169.254',
      'publico.exemplo': '93.184.215.14',
      'mapeado.exemplo': '::ffff:127.0.0.1',
      'troca.exemplo': '93.184.215.14',
    };

    beforeAll(async () => swap({ ...RAPIDO, allowPrivate: false, resolve: resolver(names) }));

    it('refuses loopback, private and link-local URLs at registration, with a Portuguese 400', async () => {
      const refused = async (url: string, on = app) => {
        const response = await inject(on, 'POST', `/api/projeto/${projeto}/webhooks`, {
          url,
          eventos: ['registro criado'],
        });
        expect(response.statusCode, url).toBe(400);
        return response.json<{ message: string }>().message;
      };
      for (const url of [
        'http://127.0.0.1:8080/x',
        'http://127.1.2.3/x',
        'http://10.0.0.1/x',
        'http://10.255.1.1/x',
        'http://172.16.5.4/x',
        'http://192.168.0.10/x',
        'http://169.254.169.254/latest/meta-data/',
        'http://0.0.0.0/x',
        'http://[::1]/x',
        'http://[fd00::1]/x',
        'http://[fe80::1]/x',
        'http://[::ffff:127.0.0.1]/x',
        'http://interno.exemplo/x',
        'http://metadados.exemplo/x',
        'http://mapeado.exemplo/x',
      ]) {
        expect(await refused(url), url).toBe(ENDERECO_INTERNO);
      }
      // `localhost` through the system's own resolver.
      const system = await webhookApp({ allowPrivate: false });
      const message = await refused('http://localhost:8080/x', system);
      await system.close();
      expect(message).toBe(ENDERECO_INTERNO);

      expect(await refused('http://nao-existe.exemplo/x')).toBe(
        'O endereço da URL não foi encontrado (DNS): confira a URL.',
      );
      const publico = await cadastrar({ url: 'https://publico.exemplo/gancho' });
      await excluir(publico._id);
      expect(await webhooksNoBanco()).toBe(0);
    });

    it('refuses them at send: a URL stored while allowed, and a name that resolves inside later', async () => {
      // Stored while the setting was on (or by hand): the guard at send still refuses it.
      const [literal] = await ctx.db.query<{ id: string }>(
        `INSERT INTO webhooks (projeto, url, eventos, segredo) VALUES ($1, $2, '{registro criado}', $3) RETURNING id`,
        [projeto, rx.url, 'segredo-de-um-webhook-antigo'],
      );
      // A public name when registered, the loopback when the delivery resolves it (DNS rebinding).
      const troca = await cadastrar({
        url: `http://troca.exemplo:${rx.port}/gancho`,
        eventos: ['registro criado'],
      });
      names['troca.exemplo'] = '127.0.0.1';
      const antes = rx.recebidas.length;
      await enviarUnidade();
      for (const webhook of [literal?.id ?? '', troca._id]) {
        const [entrega] = await waitFor(async () => {
          const lista = await entregas(webhook);
          return (lista[0]?.tentativas ?? 0) >= 2 && lista;
        });
        expect(entrega).toMatchObject({
          status: 'pendente',
          ultimoErro: ENDERECO_INTERNO,
          ultimoStatusHttp: null,
        });
        await excluir(webhook);
      }
      expect(rx.recebidas.length).toBe(antes);
    });
  });
});
