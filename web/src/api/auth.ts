// POST /api/auth/login, POST /api/auth/logout, GET /api/auth/me.
import type { LoginInput } from '@novus/domain/auth';
import { sessionSchema, type Session } from '../offline/session';
import type { ApiClient } from './client';

export function login(api: ApiClient, input: LoginInput): Promise<Session> {
  return api.json('POST', '/api/auth/login', sessionSchema, input);
}

export function logout(api: ApiClient): Promise<void> {
  return api.call('POST', '/api/auth/logout');
}

export function me(api: ApiClient): Promise<Session> {
  return api.json('GET', '/api/auth/me', sessionSchema);
}
