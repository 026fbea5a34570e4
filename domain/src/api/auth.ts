// The session (SPEC.md 7 'Auth and logging'): login sets the httpOnly cookie, logout ends it everywhere, /me says
// who it is; and POST /api/logger, where the app reports its failures.
import { loginSchema, sessionClaimsSchema } from '../auth.ts';
import { ROLES } from '../roles.ts';
import { z } from '../zod.ts';
import { endpoint, FORM, uuid } from './contract.ts';

const sessionAnswer = sessionClaimsSchema
  .extend({
    roles: z.array(z.enum(ROLES)),
    zonas: z.array(uuid).describe('As zonas do técnico.'),
    exp: z.number().int().describe('Validade da sessão, em segundos desde 1970 (UTC).'),
  })
  .describe('Sessão');

export const login = endpoint({
  method: 'POST',
  path: '/api/auth/login',
  tag: 'autenticação',
  summary: 'Entra com login e senha; a sessão vai num cookie httpOnly.',
  allow: 'público',
  body: loginSchema,
  consumes: FORM,
  bodyLimit: 16 * 1024,
  ok: {
    status: 200,
    description:
      'Sessão aberta: nome, papéis e zonas do usuário; no login que liga a verificação em duas etapas exigida, ' +
      'os códigos de recuperação.',
    answer: sessionAnswer.extend({
      codigosRecuperacao: z
        .array(z.string())
        .optional()
        .describe('Dez códigos de uso único, quando este login ligou a verificação em duas etapas.'),
    }),
  },
  errors: [401, 403, 429],
});

export const logout = endpoint({
  method: 'POST',
  path: '/api/auth/logout',
  tag: 'autenticação',
  summary: 'Encerra a sessão do cookie.',
  allow: 'público',
  ok: { status: 204, description: 'Sessão encerrada.' },
});

export const me = endpoint({
  method: 'GET',
  path: '/api/auth/me',
  tag: 'autenticação',
  summary: 'O usuário da sessão atual.',
  allow: 'sessão',
  ok: { status: 200, description: 'Nome, papéis, zonas e validade da sessão.', answer: sessionAnswer },
  errors: [401],
});

export const logSchema = z.object({
  severity: z.string().trim().min(1).max(20).default('ERROR'),
  message: z.string({ error: 'A mensagem do log é obrigatória.' }).max(20_000, 'Mensagem longa demais.'),
  extras: z.unknown().optional(),
});

/** A technician whose session expired must still be able to report why sync failed: no role required. */
export const log = endpoint({
  method: 'POST',
  path: '/api/logger',
  tag: 'sistema',
  summary: 'Registra no log do servidor um erro ocorrido no navegador.',
  allow: 'público',
  body: logSchema,
  bodyLimit: 64 * 1024,
  ok: { status: 204, description: 'Registrado.' },
  errors: [413],
});
