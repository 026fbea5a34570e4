import { describe, expect, it } from 'vitest';
import type { UsuarioDetail } from '@novus/domain/api/usuarios';
import {
  emptyUsuarioForm,
  usuarioCreateBody,
  usuarioFormReducer,
  type UsuarioFormAction,
  type UsuarioFormState,
  usuarioUpdateBody,
} from '../src/backoffice/usuarios/usuario-form';

const run = (start: UsuarioFormState, ...actions: UsuarioFormAction[]) =>
  actions.reduce(usuarioFormReducer, start);

const tecnicoSupervisor: UsuarioDetail = {
  _id: 'u1',
  login: 'joana',
  firstName: 'Joana',
  lastName: 'Dias',
  roles: ['supervisor', 'tecnico'],
  cliente: 'c1',
  zonas: ['z1', 'z2'],
  projetos: ['Curitiba'],
  createdAt: '2026-11-22T10:00:00.000Z',
};

describe('the user form', () => {
  it('clears the chosen zones when Técnico is unticked', () => {
    const state = run(
      emptyUsuarioForm(false),
      { type: 'role', role: 'tecnico', checked: true },
      { type: 'cliente', value: 'c1' },
      { type: 'zona', zona: 'z1', checked: true },
      { type: 'zona', zona: 'z2', checked: true },
      { type: 'zona', zona: 'z1', checked: false },
    );
    expect(state.zonas).toEqual(['z2']);
    const unticked = usuarioFormReducer(state, { type: 'role', role: 'tecnico', checked: false });
    expect(unticked.zonas).toEqual([]);
    expect(unticked.cliente).toBe('c1');
  });

  it('clears the zones when the client changes, not when the same one is picked again', () => {
    const state = run(emptyUsuarioForm(true), { type: 'loaded', usuario: tecnicoSupervisor });
    expect(usuarioFormReducer(state, { type: 'cliente', value: 'c1' }).zonas).toEqual(['z1', 'z2']);
    expect(usuarioFormReducer(state, { type: 'cliente', value: 'c2' })).toMatchObject({
      cliente: 'c2',
      zonas: [],
    });
  });

  it('on edit, unticking Supervisor clears the client and the zones of its projects', () => {
    const state = run(
      emptyUsuarioForm(true),
      { type: 'loaded', usuario: tecnicoSupervisor },
      { type: 'role', role: 'supervisor', checked: false },
    );
    expect(state).toMatchObject({ roles: ['tecnico'], cliente: '', zonas: [] });
    const creating = run(
      emptyUsuarioForm(false),
      { type: 'role', role: 'supervisor', checked: true },
      { type: 'cliente', value: 'c1' },
      { type: 'role', role: 'supervisor', checked: false },
    );
    expect(creating.cliente).toBe('c1');
  });

  it('keeps the roles in their canonical order', () => {
    const state = run(
      emptyUsuarioForm(false),
      { type: 'role', role: 'externo', checked: true },
      { type: 'role', role: 'tecnico', checked: true },
      { type: 'role', role: 'tecnico', checked: true },
    );
    expect(state.roles).toEqual(['tecnico', 'externo']);
  });

  it('sends the password on edit only when a new one was typed', () => {
    const loaded = run(emptyUsuarioForm(true), { type: 'loaded', usuario: tecnicoSupervisor });
    const body = usuarioUpdateBody(loaded, 'u1');
    expect(body).toEqual({
      id: 'u1',
      firstName: 'Joana',
      lastName: 'Dias',
      roles: ['tecnico', 'supervisor'],
      zonas: ['z1', 'z2'],
      cliente: 'c1',
    });
    const typed = run(loaded, { type: 'field', field: 'password', value: 'nova-senha-1' });
    expect(usuarioUpdateBody(typed, 'u1')).toMatchObject({
      password: 'nova-senha-1',
      passwordConfirmation: '',
    });
  });

  it('sends login and both passwords on create', () => {
    const state = run(
      emptyUsuarioForm(false),
      { type: 'field', field: 'login', value: 'ana' },
      { type: 'field', field: 'password', value: 'segredo-123' },
      { type: 'field', field: 'passwordConfirmation', value: 'segredo-123' },
      { type: 'role', role: 'administrador', checked: true },
    );
    expect(usuarioCreateBody(state)).toEqual({
      login: 'ana',
      firstName: '',
      lastName: '',
      password: 'segredo-123',
      passwordConfirmation: 'segredo-123',
      roles: ['administrador'],
      zonas: [],
      cliente: '',
    });
  });
});
