// /api/user (SPEC.md 7 'Users'): user administration, for the administrador only.
import { ROLES } from '../roles.ts';
import { usuarioCreateSchema, usuarioUpdateSchema } from '../usuario.ts';
import { z } from '../zod.ts';
import { FORM, resourceEndpoints, uuid } from './contract.ts';

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

const usuarios = resourceEndpoints({
  path: '/api/user',
  nome: ['usuário', 'usuários'],
  readers: ['administrador'],
  item: usuarioSummaryAnswer,
  one: usuarioDetailAnswer,
  create: { body: usuarioCreateSchema, consumes: FORM, errors: [409] },
  // the id may come in the body too: it must be the path's; the last administrador keeps the role (409)
  update: { body: usuarioUpdateSchema, consumes: FORM, errors: [409] },
});

export const listUsuarios = usuarios.list;
export const getUsuario = usuarios.get;
export const createUsuario = usuarios.create;
export const updateUsuario = usuarios.update;
/** Neither oneself nor the last administrador (409). */
export const deleteUsuario = usuarios.delete;
