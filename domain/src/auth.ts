// Login input and the claims a session carries (SPEC.md sections 3 and 7).
import { z } from './zod.ts';

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
});
export type LoginInput = z.infer<typeof loginSchema>;

/** What the token carries and what login and /api/auth/me answer. */
export const sessionClaimsSchema = z.object({
  nome: z.string(),
  roles: z.array(z.string()),
  zonas: z.array(z.string()),
});
export type SessionClaims = z.infer<typeof sessionClaimsSchema>;
