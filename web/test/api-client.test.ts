import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiClient, ApiError } from '../src/api/client';

function respond(status: number, body?: unknown): typeof fetch {
  return async () =>
    new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
}

describe('the API client', () => {
  it('validates a good answer with the given schema', async () => {
    const api = new ApiClient({ fetchFn: respond(200, [{ _id: '1', nome: 'Copel' }]) });
    await expect(
      api.json('GET', '/api/cliente', z.array(z.object({ _id: z.string(), nome: z.string() }))),
    ).resolves.toEqual([{ _id: '1', nome: 'Copel' }]);
  });

  it("throws the server's message and validation errors", async () => {
    const api = new ApiClient({
      fetchFn: respond(400, { message: 'Dados inválidos.', errors: [{ msg: 'a' }, { msg: 'b' }] }),
    });
    const error = await api.call('POST', '/api/cliente', { nome: '' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    if (!(error instanceof ApiError)) return;
    expect(error.status).toBe(400);
    expect(error.serverMessage).toBe('Dados inválidos.');
    expect(error.body.errors).toEqual([{ msg: 'a' }, { msg: 'b' }]);
  });

  it('calls onUnauthorized on 401 and still throws', async () => {
    let calls = 0;
    const api = new ApiClient({
      fetchFn: respond(401, { message: 'Sessão expirada.' }),
      onUnauthorized: () => calls++,
    });
    await expect(api.call('GET', '/api/cliente')).rejects.toBeInstanceOf(ApiError);
    expect(calls).toBe(1);
  });

  it('keeps only the known fields of an error answer, of the right types', async () => {
    const fails = async (body: unknown) => {
      const api = new ApiClient({ fetchFn: respond(409, body) });
      const error = await api.call('DELETE', '/api/cliente/1').catch((e: unknown) => e);
      if (!(error instanceof ApiError)) throw new Error('no ApiError');
      return error;
    };
    const odd = await fails({
      message: 42,
      errors: [{ msg: 'em uso' }, { msg: 7 }, 'x', null],
      stack: 'segredo',
    });
    expect(odd.serverMessage).toBeUndefined();
    expect(odd.message).toBe('HTTP 409');
    expect(odd.body).toEqual({ errors: [{ msg: 'em uso' }] });
    expect((await fails(['Cliente em uso.'])).body).toEqual({});
    expect((await fails(null)).body).toEqual({});
  });

  it('reports a network failure as status 0 without a server message', async () => {
    const api = new ApiClient({
      fetchFn: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const error = await api.call('POST', '/api/auth/logout').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    if (!(error instanceof ApiError)) return;
    expect(error.status).toBe(0);
    expect(error.serverMessage).toBeUndefined();
  });

  it('sends a URLSearchParams body form-encoded and anything else as JSON', async () => {
    const sent: RequestInit[] = [];
    const api = new ApiClient({
      fetchFn: async (_input, init) => {
        if (init !== undefined) sent.push(init);
        return new Response(null, { status: 200 });
      },
    });
    const form = new URLSearchParams([
      ['fluxos', 'hc'],
      ['fluxos', 'ip'],
    ]);
    await api.call('POST', '/api/projeto', form);
    await api.call('POST', '/api/user', { login: 'ana' });
    expect(sent[0]?.body).toBe(form);
    expect(sent[0]?.headers).toEqual({ Accept: 'application/json' });
    expect(sent[1]?.body).toBe('{"login":"ana"}');
    expect(sent[1]?.headers).toEqual({ Accept: 'application/json', 'Content-Type': 'application/json' });
  });
});
