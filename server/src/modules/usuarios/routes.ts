// Users: creation for now (the full administration comes with the users issue).
import type { FastifyInstance } from 'fastify';
import { usuarioCreateSchema } from '@novus/domain/usuario';
import { allow } from '../../auth/access.ts';
import { hashPassword } from '../../auth/passwords.ts';
import type { Database } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { badRequest, conflict, parseInput } from '../../errors.ts';
import { getCliente } from '../clientes/queries.ts';
import { insertUser } from './queries.ts';

export async function usuarioRoutes(app: FastifyInstance, { db }: { db: Database }): Promise<void> {
  app.post('/api/user', { preHandler: allow('administrador') }, async (request, reply) => {
    const input = parseInput(usuarioCreateSchema, request.body);
    if (input.cliente && !(await getCliente(db, input.cliente))) {
      throw badRequest('Cliente não encontrado.', [{ msg: 'Cliente não encontrado.' }]);
    }
    try {
      const row = await insertUser(db, {
        login: input.login,
        firstName: input.firstName,
        lastName: input.lastName,
        passwordHash: await hashPassword(input.password),
        roles: input.roles,
        cliente: input.cliente,
      });
      return reply.status(201).send({
        _id: row.id,
        login: row.login,
        firstName: row.first_name,
        lastName: row.last_name,
        roles: row.roles,
        cliente: row.cliente,
        createdAt: row.created_at,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('Já existe um usuário com esse login.');
      throw error;
    }
  });
}
