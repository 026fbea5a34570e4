// The /api/cliente endpoints (SPEC.md section 7).
import { z } from 'zod';
import type { Cliente, ClienteInput } from '@novus/domain/cliente';
import type { ApiClient } from './client';

const clienteSchema = z.object({ _id: z.string(), nome: z.string() });

export function listClientes(api: ApiClient): Promise<Cliente[]> {
  return api.json('GET', '/api/cliente', z.array(clienteSchema));
}

export function getCliente(api: ApiClient, id: string): Promise<Cliente> {
  return api.json('GET', `/api/cliente/${encodeURIComponent(id)}`, clienteSchema);
}

export function createCliente(api: ApiClient, input: ClienteInput): Promise<Cliente> {
  return api.json('POST', '/api/cliente', clienteSchema, input);
}

export function updateCliente(api: ApiClient, id: string, input: ClienteInput): Promise<Cliente> {
  return api.json('PUT', `/api/cliente/${encodeURIComponent(id)}`, clienteSchema, { id, nome: input.nome });
}

export function deleteCliente(api: ApiClient, id: string): Promise<void> {
  return api.call('DELETE', `/api/cliente/${encodeURIComponent(id)}`);
}
