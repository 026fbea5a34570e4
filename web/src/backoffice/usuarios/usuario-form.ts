// The user form's state and its interplay (SPEC.md sections 4 and 5): roles, client and zones depend on
// each other; everything else is the server's to validate.
import type { UsuarioDetail } from '@novus/domain/api/usuarios';
import { ROLES, type Role } from '@novus/domain/roles';

/** What the form sends (domain/src/usuario.ts validates it on the server): its fields as typed. */
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

export interface UsuarioFormState {
  editing: boolean;
  login: string;
  firstName: string;
  lastName: string;
  password: string;
  passwordConfirmation: string;
  /** '' when the user has no client. */
  cliente: string;
  roles: Role[];
  /** Zone ids. */
  zonas: string[];
}

export type TextField = 'login' | 'firstName' | 'lastName' | 'password' | 'passwordConfirmation';

export type UsuarioFormAction =
  | { type: 'loaded'; usuario: UsuarioDetail }
  | { type: 'reset' }
  | { type: 'field'; field: TextField; value: string }
  | { type: 'cliente'; value: string }
  | { type: 'role'; role: Role; checked: boolean }
  | { type: 'zona'; zona: string; checked: boolean };

export function emptyUsuarioForm(editing: boolean): UsuarioFormState {
  return {
    editing,
    login: '',
    firstName: '',
    lastName: '',
    password: '',
    passwordConfirmation: '',
    cliente: '',
    roles: [],
    zonas: [],
  };
}

export function usuarioFormReducer(state: UsuarioFormState, action: UsuarioFormAction): UsuarioFormState {
  switch (action.type) {
    case 'loaded': {
      const { usuario } = action;
      return {
        ...emptyUsuarioForm(true),
        login: usuario.login,
        firstName: usuario.firstName,
        lastName: usuario.lastName,
        cliente: usuario.cliente ?? '',
        roles: ROLES.filter((role) => usuario.roles.includes(role)),
        zonas: usuario.zonas,
      };
    }
    case 'reset':
      return emptyUsuarioForm(state.editing);
    case 'field':
      return { ...state, [action.field]: action.value };
    case 'cliente':
      // The zones belong to the old client's projects.
      return action.value === state.cliente ? state : { ...state, cliente: action.value, zonas: [] };
    case 'role': {
      if (action.checked) {
        if (state.roles.includes(action.role)) return state;
        return {
          ...state,
          roles: ROLES.filter((role) => role === action.role || state.roles.includes(role)),
        };
      }
      const next = { ...state, roles: state.roles.filter((role) => role !== action.role) };
      if (action.role === 'tecnico') return { ...next, zonas: [] };
      // Editing: a former supervisor loses the client, and with it every zone of that client's projects
      // (a zone must belong to a project of the user's client, and there is no client any more).
      if (action.role === 'supervisor' && state.editing) return { ...next, cliente: '', zonas: [] };
      return next;
    }
    case 'zona': {
      const zonas = state.zonas.filter((zona) => zona !== action.zona);
      return { ...state, zonas: action.checked ? [...zonas, action.zona] : zonas };
    }
  }
}

export function usuarioCreateBody(state: UsuarioFormState): UsuarioCreateBody {
  return {
    login: state.login,
    firstName: state.firstName,
    lastName: state.lastName,
    password: state.password,
    passwordConfirmation: state.passwordConfirmation,
    roles: state.roles,
    zonas: state.zonas,
    cliente: state.cliente,
  };
}

/** On edit the password and its confirmation go only when a new one was typed (SPEC.md section 5). */
export function usuarioUpdateBody(state: UsuarioFormState, id: string): UsuarioUpdateBody {
  const body: UsuarioUpdateBody = {
    id,
    firstName: state.firstName,
    lastName: state.lastName,
    roles: state.roles,
    zonas: state.zonas,
    cliente: state.cliente,
  };
  if (state.password !== '' || state.passwordConfirmation !== '') {
    body.password = state.password;
    body.passwordConfirmation = state.passwordConfirmation;
  }
  return body;
}
