// /api/cliente: reads for administrador and supervisor, writes for administrador (domain/src/api/clientes.ts).
import type { FastifyInstance } from 'fastify';
import * as api from '@novus/domain/api/clientes';
import { type Access, ensure, policies } from '../../auth/access.ts';
import { route } from '../../contract.ts';
import type { Database } from '../../db/database.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { auditoriaDe, clienteValores } from '../auditoria/queries.ts';
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

function rethrowDuplicate(error: unknown): never {
  if (isUniqueViolation(error)) throw conflict(DUPLICATE);
  throw error;
}

export async function clienteRoutes(app: FastifyInstance, { db, access }: { db: Database; access: Access }) {
  // A supervisor sees only their own client.
  route(app, access, api.listClientes, async ({ request }) => {
    const actor = access.actor(request);
    return (await listClientes(db)).filter((cliente) => policies.readCliente(actor, cliente._id));
  });

  route(app, access, api.getCliente, async ({ params, request }) => {
    const cliente = await getCliente(db, params.id);
    if (!cliente) throw notFound(NOT_FOUND);
    ensure(policies.readCliente(access.actor(request), cliente._id));
    return cliente;
  });

  route(app, access, api.createCliente, async ({ body, request }) => {
    const usuario = access.actor(request).id;
    return db
      .transaction(async (tx) => {
        const created = await insertCliente(tx, body.nome);
        await auditoriaDe(tx, usuario, 'cliente').criar(created._id, await clienteValores(tx, created._id));
        return created;
      })
      .catch(rethrowDuplicate);
  });

  route(app, access, api.updateCliente, async ({ params: { id }, body, request }) => {
    if (body.id !== undefined && body.id.toLowerCase() !== id) {
      throw badRequest('O identificador enviado não corresponde ao do endereço.');
    }
    const usuario = access.actor(request).id;
    return db
      .transaction(async (tx) => {
        const antes = await clienteValores(tx, id);
        const cliente = await updateCliente(tx, id, body.nome);
        if (!cliente) throw notFound(NOT_FOUND);
        await auditoriaDe(tx, usuario, 'cliente').alterar(id, antes, await clienteValores(tx, id));
        return cliente;
      })
      .catch(rethrowDuplicate);
  });

  route(app, access, api.deleteCliente, async ({ params: { id }, request }) => {
    return db
      .transaction(async (tx) => {
        const antes = await clienteValores(tx, id);
        const usage = await clienteUsage(tx, id);
        if (usage.projetos > 0 || usage.usuarios > 0) throw conflict(IN_USE);
        if (!(await deleteCliente(tx, id))) throw notFound(NOT_FOUND);
        await auditoriaDe(tx, access.actor(request).id, 'cliente').excluir(id, antes);
        return { _id: id };
      })
      .catch((error: unknown) => {
        if (isForeignKeyViolation(error)) throw conflict(IN_USE);
        throw error;
      });
  });
}
