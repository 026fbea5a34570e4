// What 'Entrar' runs: the login schema (zod), the call and what the device remembers. Loaded on the first
// submit, so the login screen shows without zod (issue 13).
import { loginSchema, SEGUNDO_FATOR_TEXTS } from '@novus/domain/auth';
import { login } from '@novus/domain/api/auth';
import { ApiError, type ApiClient } from '../api/client';
import { rememberLogin } from '../offline/pendentes-export';
import type { Session } from '../offline/session';
import { requestPersistentStorage } from '../offline/storage';

export type LoginErrors = Partial<Record<'login' | 'password' | 'codigo', string>>;

/** What the password opened: the code to ask ('codigo'), or the second factor to set up first ('configurar'). */
export type SegundaEtapa = 'codigo' | 'configurar';

export type LoginResult =
  | { ok: true; session: Session; codigosRecuperacao?: string[] }
  | { ok: false; errors: LoginErrors }
  | { ok: false; failure: string }
  | { ok: false; segundaEtapa: SegundaEtapa };

/** `storage` keeps the login the device signed in with (the pendentes export names its file after it). */
export async function submitLogin(
  api: ApiClient,
  values: { login: string; password: string; codigo?: string },
  storage: Storage,
): Promise<LoginResult> {
  const parsed = loginSchema.safeParse(values);
  if (!parsed.success) {
    const errors: LoginErrors = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if ((field === 'login' || field === 'password' || field === 'codigo') && errors[field] === undefined)
        errors[field] = issue.message;
    }
    return { ok: false, errors };
  }
  try {
    const { codigosRecuperacao, ...session } = await api.call(login, { body: parsed.data });
    rememberLogin(storage, parsed.data.login);
    void requestPersistentStorage().catch(() => false);
    return { ok: true, session, ...(codigosRecuperacao ? { codigosRecuperacao } : {}) };
  } catch (error) {
    // 'Verificação em duas etapas' (issue 42): the password was right, the account asks for more
    if (error instanceof ApiError && values.codigo === undefined) {
      if (error.status === 401 && error.serverMessage === SEGUNDO_FATOR_TEXTS.pedir) {
        return { ok: false, segundaEtapa: 'codigo' };
      }
      if (error.status === 403 && error.serverMessage === SEGUNDO_FATOR_TEXTS.configurar) {
        return { ok: false, segundaEtapa: 'configurar' };
      }
    }
    // the server's own words (wrong password, too many tries); anything else is the caller's to say
    if (error instanceof ApiError && error.serverMessage) return { ok: false, failure: error.serverMessage };
    throw error;
  }
}
