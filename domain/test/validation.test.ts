import { describe, expect, it } from 'vitest';
import { loginSchema } from '../src/auth.ts';
import { clienteInputSchema } from '../src/cliente.ts';
import { joinErrors } from '../src/messages.ts';
import { usuarioCreateSchema } from '../src/usuario.ts';

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

describe('login', () => {
  it('needs both login and password', () => {
    expect(loginSchema.safeParse({ login: 'a', password: 'b' }).success).toBe(true);
    expect(messages(loginSchema.safeParse({ login: ' ', password: '' }))).toEqual([
      'Informe o login.',
      'Informe a senha.',
    ]);
  });
});

describe('cliente', () => {
  it('trims the name and refuses an empty one', () => {
    expect(clienteInputSchema.parse({ nome: '  Copel ' })).toEqual({ nome: 'Copel' });
    expect(messages(clienteInputSchema.safeParse({ nome: '   ' }))).toEqual([
      'O nome do cliente é obrigatório.',
    ]);
  });
});

describe('usuario', () => {
  const valid = {
    login: 'tec1',
    firstName: 'Ana',
    lastName: 'Souza',
    password: 'segredo-123',
    passwordConfirmation: 'segredo-123',
    roles: 'tecnico',
  };

  it('accepts one role as a plain form field and several as a list', () => {
    expect(usuarioCreateSchema.parse(valid).roles).toEqual(['tecnico']);
    expect(usuarioCreateSchema.parse({ ...valid, roles: ['tecnico', 'externo'] }).roles).toEqual([
      'tecnico',
      'externo',
    ]);
  });

  it('states each broken rule', () => {
    expect(
      messages(usuarioCreateSchema.safeParse({ ...valid, password: 'curta', passwordConfirmation: 'curta' })),
    ).toEqual(['A senha deve ter pelo menos 8 caracteres.']);
    expect(messages(usuarioCreateSchema.safeParse({ ...valid, passwordConfirmation: 'outra-123' }))).toEqual([
      'A senha e a confirmação não conferem.',
    ]);
    expect(messages(usuarioCreateSchema.safeParse({ ...valid, roles: [] }))).toEqual([
      'Escolha pelo menos um perfil.',
    ]);
    expect(messages(usuarioCreateSchema.safeParse({ ...valid, roles: ['root'] }))).toEqual([
      'Perfil desconhecido.',
    ]);
    expect(messages(usuarioCreateSchema.safeParse({ ...valid, roles: ['supervisor'] }))).toEqual([
      'Um supervisor precisa de um cliente.',
    ]);
  });
});

describe('joinErrors (SPEC.md section 5)', () => {
  const body = { message: 'Dados inválidos.', errors: [{ msg: 'Primeiro.' }, { msg: 'Segundo.' }] };

  it("joins every error with ' | ' on creation and keeps the first on edit", () => {
    expect(joinErrors(body, 'create')).toBe('Primeiro. | Segundo.');
    expect(joinErrors(body, 'edit')).toBe('Primeiro.');
  });

  it('falls back to the message when there is no list', () => {
    expect(joinErrors({ message: 'Cliente em uso.' }, 'create')).toBe('Cliente em uso.');
    expect(joinErrors({}, 'edit')).toBe('');
  });
});
