// /api/user: user administration, for the administrador only (domain/src/api/usuarios.ts).
import type { FastifyInstance } from 'fastify';
import * as api from '@novus/domain/api/usuarios';
import { isRole } from '@novus/domain/roles';
import type { UsuarioCreate } from '@novus/domain/usuario';
import type { Access } from '../../auth/access.ts';
import { hashPassword } from '../../auth/passwords.ts';
import { route } from '../../contract.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { auditoriaDe, usuarioValores } from '../auditoria/queries.ts';
import { getCliente } from '../clientes/queries.ts';
import {
  countAdmins,
  countZonasOfCliente,
  deleteUser,
  getUser,
  insertUser,
  setUserZonas,
  updateUser,
  listUsers,
  type UsuarioListRow,
} from './queries.ts';

const NOT_FOUND = 'Usuário não encontrado.';
const LAST_ADMIN = 'O sistema precisa de pelo menos um administrador.';

/** A user as the list shows it: the client with its name. */
function usuarioSummary(row: UsuarioListRow): api.UsuarioSummary {
  return {
    ...usuarioDetail(row),
    cliente:
      row.cliente !== null && row.cliente_nome !== null ? { _id: row.cliente, nome: row.cliente_nome } : null,
  };
}

/** A user as the form edits it: the client by its id. */
function usuarioDetail(row: UsuarioListRow): api.UsuarioDetail {
  return {
    _id: row.id,
    login: row.login,
    firstName: row.first_name,
    lastName: row.last_name,
    roles: row.roles.filter(isRole),
    cliente: row.cliente,
    zonas: row.zonas,
    projetos: row.projetos,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** Zones go only to technicians, and only zones of projects of the user's client. */
async function checkedZonas(
  db: Queryable,
  user: Pick<UsuarioCreate, 'roles' | 'zonas' | 'cliente'>,
): Promise<string[]> {
  if (user.cliente && !(await getCliente(db, user.cliente))) throw badRequest('Cliente não encontrado.');
  if (!user.roles.includes('tecnico') || user.zonas.length === 0) return [];
  if (!user.cliente) throw badRequest('Escolha o cliente dos projetos das zonas do técnico.');
  if ((await countZonasOfCliente(db, user.zonas, user.cliente)) !== user.zonas.length) {
    throw badRequest('As zonas devem pertencer a projetos do cliente do usuário.');
  }
  return user.zonas;
}

export async function usuarioRoutes(app: FastifyInstance, { db, access }: { db: Database; access: Access }) {
  route(app, access, api.listUsuarios, async () => (await listUsers(db)).map(usuarioSummary));

  route(app, access, api.getUsuario, async ({ params }) => {
    const row = await getUser(db, params.id);
    if (!row) throw notFound(NOT_FOUND);
    return usuarioDetail(row);
  });

  route(app, access, api.createUsuario, async ({ body: input, request }) => {
    const zonas = await checkedZonas(db, input);
    const passwordHash = await hashPassword(input.password);
    try {
      const id = await db.transaction(async (tx) => {
        const row = await insertUser(tx, { ...input, passwordHash });
        await setUserZonas(tx, row.id, zonas);
        const depois = await usuarioValores(tx, row.id);
        await auditoriaDe(tx, access.actor(request).id, 'usuario').criar(row.id, depois);
        return row.id;
      });
      const row = await getUser(db, id);
      if (!row) throw notFound(NOT_FOUND);
      return usuarioDetail(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('Já existe um usuário com esse login.');
      throw error;
    }
  });

  route(app, access, api.updateUsuario, async ({ params: { id }, body: input, request }) => {
    if (input.id !== undefined && input.id.toLowerCase() !== id) {
      throw badRequest('O identificador enviado não corresponde ao do endereço.');
    }
    const zonas = await checkedZonas(db, input);
    const passwordHash = input.password === undefined ? undefined : await hashPassword(input.password);
    await db.transaction(async (tx) => {
      const antes = await usuarioValores(tx, id);
      const current = await getUser(tx, id);
      if (!current) throw notFound(NOT_FOUND);
      const losesAdmin = current.roles.includes('administrador') && !input.roles.includes('administrador');
      if (losesAdmin && (await countAdmins(tx)) <= 1) throw conflict(LAST_ADMIN);
      await updateUser(tx, id, { ...input, passwordHash });
      await setUserZonas(tx, id, zonas);
      const depois = await usuarioValores(tx, id);
      // the new password itself never reaches the log, only that it changed
      const logged = depois && passwordHash !== undefined ? { ...depois, senhaAlterada: true } : depois;
      await auditoriaDe(tx, access.actor(request).id, 'usuario').alterar(id, antes, logged);
    });
    const row = await getUser(db, id);
    if (!row) throw notFound(NOT_FOUND);
    return usuarioDetail(row);
  });

  route(app, access, api.deleteUsuario, async ({ params: { id }, request }) => {
    if (id === access.actor(request).id) throw conflict('Você não pode excluir o seu próprio usuário.');
    return db.transaction(async (tx) => {
      const antes = await usuarioValores(tx, id);
      const current = await getUser(tx, id);
      if (!current) throw notFound(NOT_FOUND);
      if (current.roles.includes('administrador') && (await countAdmins(tx)) <= 1) throw conflict(LAST_ADMIN);
      await deleteUser(tx, id);
      await auditoriaDe(tx, access.actor(request).id, 'usuario').excluir(id, antes);
      return { _id: id };
    });
  });
}
