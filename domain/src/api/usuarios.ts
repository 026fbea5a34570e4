// /api/user (SPEC.md 7 'Users'): user administration, for the administrador only.
import { ROLES } from '../roles.ts';
import { usuarioCreateSchema, usuarioUpdateSchema } from '../usuario.ts';
import { z } from '../zod.ts';
import { deletedAnswer, endpoint, uuid, uuidParam } from './contract.ts';

const usuarioSummaryAnswer = z
  .object({
    _id: uuid,
    login: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    roles: z.array(z.enum(ROLES)),
    cliente: z.object({ _id: uuid, nome: z.string() }).nullable(),
    zonas: z.array(uuid),
    projetos: z.array(z.string()).describe('Os nomes dos projetos das zonas.'),
    createdAt: z.iso.datetime(),
  })
  .describe('Usuário (lista)');

/** One user, as the form edits it: the client by its id. */
const usuarioDetailAnswer = usuarioSummaryAnswer.extend({ cliente: uuid.nullable() }).describe('Usuário');

export type UsuarioSummary = z.output<typeof usuarioSummaryAnswer>;
export type UsuarioDetail = z.output<typeof usuarioDetailAnswer>;

const params = z.object({ id: uuidParam('Identificador de usuário') });
const FORM = ['application/json', 'application/x-www-form-urlencoded'] as const;
const admin = ['administrador'] as const;

export const listUsuarios = endpoint({
  method: 'GET',
  path: '/api/user',
  tag: 'usuários',
  summary: 'Lista os usuários.',
  allow: admin,
  ok: { status: 200, description: 'Os usuários.', answer: z.array(usuarioSummaryAnswer) },
});

export const getUsuario = endpoint({
  method: 'GET',
  path: '/api/user/:id',
  tag: 'usuários',
  summary: 'Um usuário.',
  allow: admin,
  params,
  ok: { status: 200, description: 'O usuário.', answer: usuarioDetailAnswer },
});

export const createUsuario = endpoint({
  method: 'POST',
  path: '/api/user',
  tag: 'usuários',
  summary: 'Cadastra um usuário.',
  allow: admin,
  body: usuarioCreateSchema,
  consumes: FORM,
  ok: { status: 201, description: 'O usuário cadastrado.', answer: usuarioDetailAnswer },
  errors: [409],
});

export const updateUsuario = endpoint({
  method: 'PUT',
  path: '/api/user/:id',
  tag: 'usuários',
  summary: 'Altera um usuário.',
  allow: admin,
  params,
  // the id may come in the body too: it must be the path's
  body: usuarioUpdateSchema,
  consumes: FORM,
  ok: { status: 200, description: 'O usuário alterado.', answer: usuarioDetailAnswer },
  // the last administrador keeps the role
  errors: [409],
});

export const deleteUsuario = endpoint({
  method: 'DELETE',
  path: '/api/user/:id',
  tag: 'usuários',
  summary: 'Exclui um usuário.',
  allow: admin,
  params,
  ok: { status: 200, description: 'Excluído.', answer: deletedAnswer },
  // neither oneself nor the last administrador
  errors: [409],
});
