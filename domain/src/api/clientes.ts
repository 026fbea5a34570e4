// /api/cliente (SPEC.md 7 'Clients'): reads for administrador and supervisor (a supervisor sees their own client),
// writes for administrador.
import { clienteInputSchema, type Cliente } from '../cliente.ts';
import { z } from '../zod.ts';
import { FORM, resourceEndpoints, uuid } from './contract.ts';

const clienteAnswer = z
  .object({ _id: uuid, nome: z.string() })
  .describe('Cliente') satisfies z.ZodType<Cliente>;

const clientes = resourceEndpoints({
  path: '/api/cliente',
  nome: ['cliente', 'clientes'],
  readers: ['administrador', 'supervisor'],
  item: clienteAnswer,
  one: clienteAnswer,
  create: { body: clienteInputSchema, consumes: FORM, errors: [409] },
  // the id may come in the body too (SPEC.md 7: PUT /api/cliente/{id} with id, nome): it must be the path's
  update: { body: clienteInputSchema.extend({ id: z.string().optional() }), consumes: FORM, errors: [409] },
  summaries: { list: 'Lista os clientes visíveis ao usuário.' },
});

export const listClientes = clientes.list;
export const getCliente = clientes.get;
export const createCliente = clientes.create;
export const updateCliente = clientes.update;
export const deleteCliente = clientes.delete;
