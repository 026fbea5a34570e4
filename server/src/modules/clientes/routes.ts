// /api/cliente: reads for administrador and supervisor, writes for administrador.
import type { FastifyInstance } from 'fastify';
import { z } from '@novus/domain/zod';
import { clienteInputSchema } from '@novus/domain/cliente';
import { type Access, ensure, policies } from '../../auth/access.ts';
import type { Database } from '../../db/database.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors.ts';
import { badRequest, conflict, notFound, parseId, parseInput } from '../../errors.ts';
import { clienteValores, recordAuditoria } from '../auditoria/queries.ts';
import {
  clienteUsage,
  deleteCliente,
  getCliente,
  insertCliente,
  listClientes,
  updateCliente,
} from './queries.ts';

const NOT_FOUND = 'Cliente não encontrado.';
const DUPLICATE = 'Já existe um cliente com esse nome.';
const IN_USE =
  'Cliente em uso por projetos ou usuários: remova-os ou troque o cliente deles antes de excluir.';

export const clienteUpdateSchema = clienteInputSchema.extend({ id: z.string().optional() });

function rethrowDuplicate(error: unknown): never {
  if (isUniqueViolation(error)) throw conflict(DUPLICATE);
  throw error;
}

export async function clienteRoutes(app: FastifyInstance, { db, access }: { db: Database; access: Access }) {
  const readers = { preHandler: access.allow('administrador', 'supervisor') };
  const admin = { preHandler: access.allow('administrador') };

  // A supervisor sees only their own client.
  app.get('/api/cliente', readers, async (request) => {
    const actor = access.actor(request);
    return (await listClientes(db)).filter((cliente) => policies.readCliente(actor, cliente._id));
  });

  app.get<{ Params: { id: string } }>('/api/cliente/:id', readers, async (request) => {
    const cliente = await getCliente(db, parseId(request.params.id, 'Identificador de cliente'));
    if (!cliente) throw notFound(NOT_FOUND);
    ensure(policies.readCliente(access.actor(request), cliente._id));
    return cliente;
  });

  app.post('/api/cliente', admin, async (request, reply) => {
    const { nome } = parseInput(clienteInputSchema, request.body);
    const usuario = access.actor(request).id;
    const cliente = await db
      .transaction(async (tx) => {
        const created = await insertCliente(tx, nome);
        const depois = await clienteValores(tx, created._id);
        await recordAuditoria(tx, {
          usuario,
          entidade: 'cliente',
          entidadeId: created._id,
          acao: 'criar',
          antes: null,
          depois,
        });
        return created;
      })
      .catch(rethrowDuplicate);
    return reply.status(201).send(cliente);
  });

  app.put<{ Params: { id: string } }>('/api/cliente/:id', admin, async (request) => {
    const id = parseId(request.params.id, 'Identificador de cliente');
    const input = parseInput(clienteUpdateSchema, request.body);
    if (input.id !== undefined && input.id.toLowerCase() !== id) {
      throw badRequest('O identificador enviado não corresponde ao do endereço.');
    }
    const usuario = access.actor(request).id;
    return db
      .transaction(async (tx) => {
        const antes = await clienteValores(tx, id);
        const cliente = await updateCliente(tx, id, input.nome);
        if (!cliente) throw notFound(NOT_FOUND);
        const depois = await clienteValores(tx, id);
        await recordAuditoria(tx, {
          usuario,
          entidade: 'cliente',
          entidadeId: id,
          acao: 'alterar',
          antes,
          depois,
        });
        return cliente;
      })
      .catch(rethrowDuplicate);
  });

  app.delete<{ Params: { id: string } }>('/api/cliente/:id', admin, async (request) => {
    const id = parseId(request.params.id, 'Identificador de cliente');
    return db
      .transaction(async (tx) => {
        const antes = await clienteValores(tx, id);
        const usage = await clienteUsage(tx, id);
        if (usage.projetos > 0 || usage.usuarios > 0) throw conflict(IN_USE);
        if (!(await deleteCliente(tx, id))) throw notFound(NOT_FOUND);
        const usuario = access.actor(request).id;
        await recordAuditoria(tx, {
          usuario,
          entidade: 'cliente',
          entidadeId: id,
          acao: 'excluir',
          antes,
          depois: null,
        });
        return { _id: id };
      })
      .catch((error: unknown) => {
        if (isForeignKeyViolation(error)) throw conflict(IN_USE);
        throw error;
      });
  });
}
