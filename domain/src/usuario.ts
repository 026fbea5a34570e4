// A user of Novus and the rules for creating one (the spec leaves server rules open: these are ours).
import { z } from './zod.ts';
import { ROLES } from './roles.ts';

const oneOrMany = <T extends z.ZodType>(item: T) =>
  z.preprocess((value) => (value === undefined || Array.isArray(value) ? value : [value]), z.array(item));

const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

export const usuarioCreateSchema = z
  .object({
    login: z
      .string({ error: 'O login é obrigatório.' })
      .trim()
      .min(1, 'O login é obrigatório.')
      .max(100, 'O login deve ter no máximo 100 caracteres.'),
    firstName: z.string().trim().max(100, 'O primeiro nome deve ter no máximo 100 caracteres.').default(''),
    lastName: z.string().trim().max(100, 'O sobrenome deve ter no máximo 100 caracteres.').default(''),
    password: z
      .string({ error: 'A senha é obrigatória.' })
      .min(8, 'A senha deve ter pelo menos 8 caracteres.')
      .max(200, 'A senha deve ter no máximo 200 caracteres.'),
    passwordConfirmation: z.string({ error: 'Redigite a senha.' }),
    roles: oneOrMany(z.enum(ROLES, { error: 'Perfil desconhecido.' })).refine((roles) => roles.length > 0, {
      message: 'Escolha pelo menos um perfil.',
    }),
    cliente: z.preprocess(emptyToUndefined, z.uuid({ error: 'Cliente inválido.' }).optional()),
  })
  .refine((user) => user.password === user.passwordConfirmation, {
    message: 'A senha e a confirmação não conferem.',
  })
  .refine((user) => !user.roles.includes('supervisor') || user.cliente !== undefined, {
    message: 'Um supervisor precisa de um cliente.',
  });
export type UsuarioCreate = z.infer<typeof usuarioCreateSchema>;
