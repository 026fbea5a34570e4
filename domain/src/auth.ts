// Login input and the claims a session carries (SPEC.md sections 3 and 7).
import { z } from './zod.ts';

/** 'Verificação em duas etapas' (issue 42): the texts the server answers and the screens show. */
export const SEGUNDO_FATOR_TEXTS = {
  title: 'Verificação em duas etapas',
  codigo: 'Código de verificação',
  /** The password was right; the account asks for its code (401, no session). */
  pedir: 'Informe o código de verificação.',
  invalido: 'Código de verificação inválido.',
  /** The role must have it and the account has not set it up yet (403, no session). */
  configurar: 'A verificação em duas etapas é obrigatória para o seu perfil. Configure-a para entrar.',
} as const;

/** Six digits of the authenticator app, or one of the ten recovery codes ('abcde-fghij'); spaces are ignored. */
export const codigoSchema = z
  .string({ error: SEGUNDO_FATOR_TEXTS.pedir })
  .trim()
  .min(1, SEGUNDO_FATOR_TEXTS.pedir)
  .max(40, SEGUNDO_FATOR_TEXTS.invalido);

export const loginSchema = z.object({
  login: z
    .string({ error: 'Informe o login.' })
    .trim()
    .min(1, 'Informe o login.')
    .max(200, 'Login longo demais.'),
  password: z
    .string({ error: 'Informe a senha.' })
    .min(1, 'Informe a senha.')
    .max(500, 'Senha longa demais.'),
  /** The 'Código de verificação' of an account with the second factor on: six digits, or a recovery code. */
  codigo: codigoSchema.optional(),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** What the token carries and what login and /api/auth/me answer. */
export const sessionClaimsSchema = z.object({
  nome: z.string(),
  roles: z.array(z.string()),
  zonas: z.array(z.string()),
});
export type SessionClaims = z.infer<typeof sessionClaimsSchema>;
