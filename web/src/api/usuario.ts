// The /api/user endpoints (SPEC.md section 7).
import { z } from 'zod';
import { ROLES, type Role } from '@novus/domain/roles';
import type { ApiClient } from './client';

const roles = z.array(z.enum(ROLES));

const usuarioSummarySchema = z.object({
  _id: z.string(),
  login: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  roles,
  cliente: z.object({ _id: z.string(), nome: z.string() }).nullable(),
  zonas: z.array(z.string()),
  projetos: z.array(z.string()),
  createdAt: z.string(),
});
export type UsuarioSummary = z.infer<typeof usuarioSummarySchema>;

const usuarioDetailSchema = usuarioSummarySchema.extend({ cliente: z.string().nullable() });
export type UsuarioDetail = z.infer<typeof usuarioDetailSchema>;

interface UsuarioFields {
  firstName: string;
  lastName: string;
  roles: Role[];
  zonas: string[];
  cliente: string;
}

export interface UsuarioCreateBody extends UsuarioFields {
  login: string;
  password: string;
  passwordConfirmation: string;
}

export interface UsuarioUpdateBody extends UsuarioFields {
  id: string;
  password?: string;
  passwordConfirmation?: string;
}

const path = (id: string) => `/api/user/${encodeURIComponent(id)}`;

export function listUsuarios(api: ApiClient): Promise<UsuarioSummary[]> {
  return api.json('GET', '/api/user', z.array(usuarioSummarySchema));
}

export function getUsuario(api: ApiClient, id: string): Promise<UsuarioDetail> {
  return api.json('GET', path(id), usuarioDetailSchema);
}

export function createUsuario(api: ApiClient, body: UsuarioCreateBody): Promise<void> {
  return api.call('POST', '/api/user', body);
}

export function updateUsuario(api: ApiClient, body: UsuarioUpdateBody): Promise<void> {
  return api.call('PUT', path(body.id), body);
}

export function deleteUsuario(api: ApiClient, id: string): Promise<void> {
  return api.call('DELETE', path(id));
}
