// Test data through the real API, with the cookie of whoever is logged in on the page.
import { expect, type APIRequestContext } from '@playwright/test';

export interface NewUser {
  login: string;
  password: string;
  firstName: string;
  lastName: string;
  roles: string[];
  cliente?: string;
}

let counter = 0;
/** Unique per run: the server's database lives for the whole run. */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix} ${Date.now().toString(36)}${counter}`;
}

export async function createUser(request: APIRequestContext, user: NewUser): Promise<void> {
  const response = await request.post('/api/user', {
    data: { ...user, passwordConfirmation: user.password },
  });
  expect(response.status(), await response.text()).toBe(201);
}

export async function createCliente(request: APIRequestContext, nome: string): Promise<string> {
  const response = await request.post('/api/cliente', { data: { nome } });
  expect(response.status(), await response.text()).toBe(201);
  const body: unknown = await response.json();
  if (typeof body === 'object' && body !== null && '_id' in body && typeof body._id === 'string')
    return body._id;
  throw new Error(`unexpected cliente body ${JSON.stringify(body)}`);
}

/** POST /api/projeto form-encoded, as the project form sends it. */
export async function createProjeto(
  request: APIRequestContext,
  projeto: { nome: string; cliente: string; fluxos: string; kml?: string },
): Promise<string> {
  const response = await request.post('/api/projeto', {
    form: { ...projeto, fuso: '', disponivelInterpres: 'false' },
  });
  expect(response.status(), await response.text()).toBe(201);
  const body: unknown = await response.json();
  if (typeof body === 'object' && body !== null && '_id' in body && typeof body._id === 'string')
    return body._id;
  throw new Error(`unexpected projeto body ${JSON.stringify(body)}`);
}
