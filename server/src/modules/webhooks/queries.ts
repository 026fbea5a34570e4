// SQL for the webhooks and their deliveries (migration 0016): the administrador's list, the delivery log, and the
// dispatcher's outbox — taken with FOR UPDATE SKIP LOCKED under a lease, its outcome recorded fenced by the attempt.
import type { Entrega, EventoWebhook, StatusEntrega, Webhook } from '@novus/domain/api/webhooks';
import type { Queryable } from '../../db/database.ts';
import { userName } from '../../db/fragments.ts';
import { segredoMascarado } from './signature.ts';

interface WebhookRow {
  id: string;
  projeto: string;
  url: string;
  eventos: EventoWebhook[];
  segredo: string;
  ativo: boolean;
  criado_em: Date;
  criado_por: string | null;
  pendentes: number;
  falhas: number;
  ultima_entrega: Date | null;
}

const SELECT_WEBHOOK = `SELECT w.id, w.projeto, w.url, w.eventos, w.segredo, w.ativo, w.criado_em,
    COALESCE(${userName('u')}, u.login) AS criado_por,
    (SELECT count(*)::int FROM webhook_entregas e WHERE e.webhook = w.id AND e.status = 'pendente') AS pendentes,
    (SELECT count(*)::int FROM webhook_entregas e WHERE e.webhook = w.id AND e.status = 'falhou') AS falhas,
    (SELECT max(e.entregue_em) FROM webhook_entregas e WHERE e.webhook = w.id) AS ultima_entrega
  FROM webhooks w
  LEFT JOIN usuarios u ON u.id = w.criado_por`;

function webhookJson(row: WebhookRow): Webhook {
  return {
    _id: row.id,
    projeto: row.projeto,
    url: row.url,
    eventos: row.eventos,
    segredo: segredoMascarado(row.segredo),
    ativo: row.ativo,
    criadoEm: row.criado_em.toISOString(),
    criadoPor: row.criado_por,
    pendentes: row.pendentes,
    falhas: row.falhas,
    ultimaEntrega: row.ultima_entrega?.toISOString() ?? null,
  };
}

export async function projetoExists(db: Queryable, projeto: string): Promise<boolean> {
  return (await db.query('SELECT 1 FROM projetos WHERE id = $1', [projeto])).length > 0;
}

export async function listWebhooks(db: Queryable, projeto: string): Promise<Webhook[]> {
  const rows = await db.query<WebhookRow>(
    `${SELECT_WEBHOOK} WHERE w.projeto = $1 ORDER BY w.criado_em, w.id`,
    [projeto],
  );
  return rows.map(webhookJson);
}

export async function getWebhook(db: Queryable, id: string): Promise<Webhook | undefined> {
  const [row] = await db.query<WebhookRow>(`${SELECT_WEBHOOK} WHERE w.id = $1`, [id]);
  return row && webhookJson(row);
}

export interface NovoWebhook {
  projeto: string;
  url: string;
  eventos: EventoWebhook[];
  segredo: string;
  criadoPor: string;
}

export async function insertWebhook(db: Queryable, webhook: NovoWebhook): Promise<string> {
  const [row] = await db.query<{ id: string }>(
    `INSERT INTO webhooks (projeto, url, eventos, segredo, criado_por) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [webhook.projeto, webhook.url, webhook.eventos, webhook.segredo, webhook.criadoPor],
  );
  if (!row) throw new Error('INSERT ... RETURNING gave no row');
  return row.id;
}

export async function deleteWebhook(db: Queryable, id: string): Promise<boolean> {
  return (await db.query('DELETE FROM webhooks WHERE id = $1 RETURNING id', [id])).length > 0;
}

interface EntregaRow {
  id: string;
  evento: EventoWebhook;
  registro: string;
  versao: number | null;
  em: Date;
  status: StatusEntrega;
  tentativas: number;
  proxima_tentativa: Date;
  ultima_tentativa: Date | null;
  ultimo_status_http: number | null;
  ultimo_erro: string | null;
  entregue_em: Date | null;
}

const SELECT_ENTREGA = `SELECT id, evento, registro, versao, em, status, tentativas, proxima_tentativa,
  ultima_tentativa, ultimo_status_http, ultimo_erro, entregue_em FROM webhook_entregas`;

function entregaJson(row: EntregaRow): Entrega {
  return {
    _id: row.id,
    evento: row.evento,
    registro: row.registro,
    versao: row.versao,
    em: row.em.toISOString(),
    status: row.status,
    tentativas: row.tentativas,
    proximaTentativa: row.status === 'pendente' ? row.proxima_tentativa.toISOString() : null,
    ultimaTentativa: row.ultima_tentativa?.toISOString() ?? null,
    ultimoStatusHttp: row.ultimo_status_http,
    ultimoErro: row.ultimo_erro,
    entregueEm: row.entregue_em?.toISOString() ?? null,
  };
}

export async function listEntregas(
  db: Queryable,
  webhook: string,
  status: StatusEntrega | undefined,
  limite: number,
): Promise<Entrega[]> {
  const rows = await db.query<EntregaRow>(
    `${SELECT_ENTREGA} WHERE webhook = $1 AND ($2::text IS NULL OR status = $2)
     ORDER BY em DESC, id DESC LIMIT $3`,
    [webhook, status ?? null, limite],
  );
  return rows.map(entregaJson);
}

/**
 * 'Reenviar': the delivery is due now, with 24 hours of retries from now. Its id stays (a receiver that already
 * has it knows it is the same change); tentativas goes on counting, as it fences the dispatcher's outcomes.
 */
export async function requeueEntrega(
  db: Queryable,
  webhook: string,
  id: string,
): Promise<Entrega | undefined> {
  const [row] = await db.query<EntregaRow>(
    `UPDATE webhook_entregas SET status = 'pendente', proxima_tentativa = now(), desde = now()
     WHERE id = $1 AND webhook = $2
     RETURNING id, evento, registro, versao, em, status, tentativas, proxima_tentativa, ultima_tentativa,
       ultimo_status_http, ultimo_erro, entregue_em`,
    [id, webhook],
  );
  return row && entregaJson(row);
}

/** A delivery taken by a dispatcher: what to send, where, and the attempt it is (the fence of its outcome). */
export interface Devida {
  id: string;
  evento: EventoWebhook;
  projeto: string;
  registro: string;
  em: Date;
  tentativas: number;
  url: string;
  segredo: string;
}

/**
 * Takes up to `limite` due deliveries of active webhooks, skipping those another process holds, and leases them:
 * they are due again only after `leaseMs` (a process that dies while sending leaves them to another). One
 * statement, so the row locks last only as long as it does.
 */
export async function takeDevidas(db: Queryable, limite: number, leaseMs: number): Promise<Devida[]> {
  return db.query<Devida>(
    `WITH devidas AS (
       SELECT e.id FROM webhook_entregas e
       JOIN webhooks w ON w.id = e.webhook AND w.ativo
       WHERE e.status = 'pendente' AND e.proxima_tentativa <= now()
       ORDER BY e.proxima_tentativa
       LIMIT $1
       FOR UPDATE OF e SKIP LOCKED
     )
     UPDATE webhook_entregas e
     SET proxima_tentativa = now() + $2 * interval '1 millisecond', tentativas = e.tentativas + 1,
       ultima_tentativa = now()
     FROM devidas, webhooks w
     WHERE e.id = devidas.id AND w.id = e.webhook
     RETURNING e.id, e.evento, e.projeto, e.registro, e.em, e.tentativas, w.url, w.segredo`,
    [limite, leaseMs],
  );
}

/** A 2xx: delivered. Nothing when a newer attempt took the delivery over (its lease had ended). */
export async function recordEntregue(db: Queryable, devida: Devida, statusHttp: number): Promise<void> {
  await db.query(
    `UPDATE webhook_entregas SET status = 'entregue', entregue_em = now(), ultimo_status_http = $3, ultimo_erro = NULL
     WHERE id = $1 AND tentativas = $2 AND status = 'pendente'`,
    [devida.id, devida.tentativas, statusHttp],
  );
}

/**
 * A failed attempt: due again after `retryMs`, or 'falhou' when that would pass `janelaMs` from the start of its
 * retries (the change, or its 'Reenviar'); `definitiva` fails it at once (what it would send is gone).
 */
export async function recordFalha(
  db: Queryable,
  devida: Devida,
  falha: { statusHttp: number | null; erro: string; retryMs: number; janelaMs: number; definitiva: boolean },
): Promise<void> {
  await db.query(
    `UPDATE webhook_entregas SET
       ultimo_status_http = $3, ultimo_erro = $4,
       proxima_tentativa = now() + $5 * interval '1 millisecond',
       status = CASE WHEN $7 OR now() + $5 * interval '1 millisecond' > desde + $6 * interval '1 millisecond'
         THEN 'falhou' ELSE 'pendente' END
     WHERE id = $1 AND tentativas = $2 AND status = 'pendente'`,
    [
      devida.id,
      devida.tentativas,
      falha.statusHttp,
      falha.erro,
      falha.retryMs,
      falha.janelaMs,
      falha.definitiva,
    ],
  );
}
