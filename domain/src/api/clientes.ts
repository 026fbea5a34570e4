// /api/cliente (SPEC.md 7 'Clients'): reads for administrador and supervisor (a supervisor sees their own client),
// writes for administrador.
import { clienteInputSchema, type Cliente } from '../cliente.ts';
import { z } from '../zod.ts';
import { deletedAnswer, endpoint, uuid, uuidParam } from './contract.ts';

const clienteAnswer = z
  .object({ _id: uuid, nome: z.string() })
  .describe('Cliente') satisfies z.ZodType<Cliente>;
const params = z.object({ id: uuidParam('Identificador de cliente') });
const FORM = ['application/json', 'application/x-www-form-urlencoded'] as const;
const readers = ['administrador', 'supervisor'] as const;
const admin = ['administrador'] as const;

export const listClientes = endpoint({
  method: 'GET',
  path: '/api/cliente',
  tag: 'clientes',
  summary: 'Lista os clientes visíveis ao usuário.',
  allow: readers,
  ok: { status: 200, description: 'Os clientes.', answer: z.array(clienteAnswer) },
});

export const getCliente = endpoint({
  method: 'GET',
  path: '/api/cliente/:id',
  tag: 'clientes',
  summary: 'Um cliente.',
  allow: readers,
  params,
  ok: { status: 200, description: 'O cliente.', answer: clienteAnswer },
});

export const createCliente = endpoint({
  method: 'POST',
  path: '/api/cliente',
  tag: 'clientes',
  summary: 'Cadastra um cliente.',
  allow: admin,
  body: clienteInputSchema,
  consumes: FORM,
  ok: { status: 201, description: 'O cliente cadastrado.', answer: clienteAnswer },
  errors: [409],
});

export const updateCliente = endpoint({
  method: 'PUT',
  path: '/api/cliente/:id',
  tag: 'clientes',
  summary: 'Altera um cliente.',
  allow: admin,
  params,
  // the id may come in the body too (SPEC.md 7: PUT /api/cliente/{id} with id, nome): it must be the path's
  body: clienteInputSchema.extend({ id: z.string().optional() }),
  consumes: FORM,
  ok: { status: 200, description: 'O cliente alterado.', answer: clienteAnswer },
  errors: [409],
});

export const deleteCliente = endpoint({
  method: 'DELETE',
  path: '/api/cliente/:id',
  tag: 'clientes',
  summary: 'Exclui um cliente.',
  allow: admin,
  params,
  ok: { status: 200, description: 'Excluído.', answer: deletedAnswer },
  errors: [409],
});
