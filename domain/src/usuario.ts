// A user of Novus and the rules for creating and changing one (SPEC.md leaves server rules open: these are ours).
import { ROLES } from './roles.ts';
import { emptyToUndefined, listField } from './form-fields.ts';
import { z } from './zod.ts';

const name = (what: string) =>
  z.preprocess(
    (value) => value ?? '',
    z
      .string({ error: `${what} inválido.` })
      .trim()
      .max(100, `${what} deve ter no máximo 100 caracteres.`),
  );

const password = z
  .string({ error: 'A senha é obrigatória.' })
  .min(8, 'A senha deve ter pelo menos 8 caracteres.')
  .max(200, 'A senha deve ter no máximo 200 caracteres.');

const common = {
  firstName: name('O primeiro nome'),
  lastName: name('O sobrenome'),
  roles: listField(z.enum(ROLES, { error: 'Perfil desconhecido.' }), 'Perfis inválidos.').refine(
    (roles) => roles.length > 0,
    { message: 'Escolha pelo menos um perfil.' },
  ),
  zonas: listField(z.uuid({ error: 'Zona inválida.' }), 'Zonas inválidas.').transform((zonas) => [
    ...new Set(zonas.map((zona) => zona.toLowerCase())),
  ]),
  cliente: z.preprocess(emptyToUndefined, z.uuid({ error: 'Cliente inválido.' }).optional()),
};

const samePassword = (user: { password?: string; passwordConfirmation?: string }) =>
  user.password === undefined || user.password === user.passwordConfirmation;

const supervisorHasCliente = (user: { roles: string[]; cliente?: string }) =>
  !user.roles.includes('supervisor') || user.cliente !== undefined;

export const usuarioCreateSchema = z
  .object({
    login: z
      .string({ error: 'O login é obrigatório.' })
      .trim()
      .min(1, 'O login é obrigatório.')
      .max(100, 'O login deve ter no máximo 100 caracteres.'),
    password,
    passwordConfirmation: z.preprocess((value) => value ?? '', z.string()),
    ...common,
  })
  .refine(samePassword, { message: 'A senha e a confirmação não conferem.' })
  .refine(supervisorHasCliente, { message: 'Um supervisor precisa de um cliente.' });
export type UsuarioCreate = z.infer<typeof usuarioCreateSchema>;

/** On edit the login cannot change, and the password is sent only when a new one was typed. */
export const usuarioUpdateSchema = z
  .object({
    id: z.string().optional(),
    password: z.preprocess(emptyToUndefined, password.optional()),
    passwordConfirmation: z.preprocess(emptyToUndefined, z.string().optional()),
    ...common,
  })
  .refine(samePassword, { message: 'A senha e a confirmação não conferem.' })
  .refine(supervisorHasCliente, { message: 'Um supervisor precisa de um cliente.' });
export type UsuarioUpdate = z.infer<typeof usuarioUpdateSchema>;
