// POST /api/auth/login, POST /api/auth/logout, GET /api/auth/me.
import { z } from 'zod';
import { sessionClaimsSchema, type LoginInput } from '@novus/domain/auth';
import type { Session } from '../offline/session';
import type { ApiClient } from './client';

export const sessionSchema = sessionClaimsSchema.extend({
  /** Expiry in epoch seconds, as the server's token has it. */
  exp: z.number(),
}) satisfies z.ZodType<Session>;

export function login(api: ApiClient, input: LoginInput): Promise<Session> {
  return api.json('POST', '/api/auth/login', sessionSchema, input);
}

export function me(api: ApiClient): Promise<Session> {
  return api.json('GET', '/api/auth/me', sessionSchema);
}
