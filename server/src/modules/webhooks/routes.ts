// /api/projeto/:id/webhooks and /api/webhook/:id (issue 27, domain/src/api/webhooks.ts): the administrador's
// webhooks per project, their delivery log and 'Reenviar'. A URL that leads into our own network is refused here
// already (and again before every send, where the dispatcher's guard decides).
import type { FastifyInstance } from 'fastify';
import * as api from '@novus/domain/api/webhooks';
import type { Access } from '../../auth/access.ts';
import { route } from '../../contract.ts';
import type { Database } from '../../db/database.ts';
import { badRequest, notFound } from '../../errors.ts';
import { AddressRefused, checkedAddresses } from './address-guard.ts';
import type { WebhookDispatcher, WebhookOptions } from './dispatcher.ts';
import {
  deleteWebhook,
  getWebhook,
  insertWebhook,
  listEntregas,
  listWebhooks,
  projetoExists,
  requeueEntrega,
} from './queries.ts';
import { novoSegredo } from './signature.ts';

const PROJETO_NAO_ENCONTRADO = 'Projeto não encontrado.';
const WEBHOOK_NAO_ENCONTRADO = 'Webhook não encontrado.';

export async function webhookRoutes(
  app: FastifyInstance,
  {
    db,
    access,
    dispatcher,
    options,
  }: {
    db: Database;
    access: Access;
    dispatcher: WebhookDispatcher;
    options: Pick<WebhookOptions, 'allowPrivate' | 'resolve'>;
  },
) {
  async function existing(id: string) {
    const webhook = await getWebhook(db, id);
    if (!webhook) throw notFound(WEBHOOK_NAO_ENCONTRADO);
    return webhook;
  }

  route(app, access, api.listWebhooks, async ({ params }) => {
    if (!(await projetoExists(db, params.id))) throw notFound(PROJETO_NAO_ENCONTRADO);
    return listWebhooks(db, params.id);
  });

  route(app, access, api.createWebhook, async ({ params, body, request }) => {
    const actor = access.actor(request);
    if (!(await projetoExists(db, params.id))) throw notFound(PROJETO_NAO_ENCONTRADO);
    try {
      await checkedAddresses(new URL(body.url), options.resolve, options.allowPrivate);
    } catch (error) {
      if (error instanceof AddressRefused) throw badRequest(error.motivo);
      throw error;
    }
    const segredo = body.segredo || novoSegredo();
    const id = await insertWebhook(db, {
      projeto: params.id,
      url: body.url,
      eventos: body.eventos,
      segredo,
      criadoPor: actor.id,
    });
    return { ...(await existing(id)), segredo };
  });

  route(app, access, api.deleteWebhook, async ({ params }) => {
    if (!(await deleteWebhook(db, params.id))) throw notFound(WEBHOOK_NAO_ENCONTRADO);
    return { _id: params.id };
  });

  route(app, access, api.listEntregas, async ({ params, query }) => {
    await existing(params.id);
    return listEntregas(db, params.id, query.status, api.ENTREGAS_MAX);
  });

  route(app, access, api.reenviarEntrega, async ({ params }) => {
    const entrega = await requeueEntrega(db, params.id, params.entrega);
    if (!entrega) throw notFound('Entrega não encontrada.');
    dispatcher.wake();
    return entrega;
  });
}
