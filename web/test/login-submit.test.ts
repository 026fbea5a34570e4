import { describe, expect, it } from 'vitest';
import { ApiClient, ApiError } from '../src/api/client';
import { submitLogin } from '../src/login/submit';

class MemoryStorage {
  readonly items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
}
const storage = () => new MemoryStorage() as unknown as Storage & MemoryStorage;

// what the server answers (domain/src/api/auth.ts: zone ids are UUIDs)
const session = {
  nome: 'Ana Souza',
  roles: ['tecnico'],
  zonas: ['0196f5a2-7c1e-7d3a-9b2c-1a2b3c4d5e6f'],
  exp: 2_000_000_000,
};

function server(status: number, body: unknown) {
  const calls: { url: string; body: unknown }[] = [];
  const api = new ApiClient({
    fetchFn: async (input, init) => {
      calls.push({ url: String(input), body: JSON.parse(String(init?.body ?? 'null')) });
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    },
  });
  return { api, calls };
}

describe("the login's 'Entrar'", () => {
  it('refuses empty fields in Portuguese before anything is sent', async () => {
    const { api, calls } = server(200, session);
    expect(await submitLogin(api, { login: '   ', password: '' }, storage())).toEqual({
      ok: false,
      errors: { login: 'Informe o login.', password: 'Informe a senha.' },
    });
    expect(calls).toEqual([]);
  });

  it('sends the trimmed login and answers the session the server gave', async () => {
    const { api, calls } = server(200, session);
    const device = storage();
    expect(await submitLogin(api, { login: ' ana ', password: 'senha-1' }, device)).toEqual({
      ok: true,
      session,
    });
    expect(calls).toEqual([{ url: '/api/auth/login', body: { login: 'ana', password: 'senha-1' } }]);
    expect(device.getItem('novus.login')).toBe('ana');
  });

  it("says the server's own words when it refuses", async () => {
    const { api } = server(401, { message: 'Login ou senha inválidos.' });
    expect(await submitLogin(api, { login: 'ana', password: 'errada' }, storage())).toEqual({
      ok: false,
      failure: 'Login ou senha inválidos.',
    });
  });

  it('leaves a failure without words (no network, a session the server did not send) to the screen', async () => {
    const offline = new ApiClient({
      fetchFn: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await expect(submitLogin(offline, { login: 'ana', password: 'x' }, storage())).rejects.toBeInstanceOf(
      ApiError,
    );
    const { api } = server(200, { nome: 'Ana' });
    await expect(submitLogin(api, { login: 'ana', password: 'x' }, storage())).rejects.toThrow();
  });
});
