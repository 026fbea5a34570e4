// The end of a sign-in with the company's account (issue 42): the server set the session's cookie at its callback
// and sent the browser here; the device takes the session's claims from GET /api/auth/me and remembers the login
// (the pendentes export names its file after it) and whether the provider has a logout to offer after Novus's.
// Loaded only then, so the login screen shows without zod.
import { me } from '@novus/domain/api/auth';
import type { ApiClient } from '../api/client';
import { rememberLogin } from '../offline/pendentes-export';
import type { Session } from '../offline/session';
import { requestPersistentStorage } from '../offline/storage';
import { lembrarSairDoProvedor } from './provedor';

export async function concluirEntradaEmpresa(
  api: ApiClient,
  params: URLSearchParams,
  storage: Storage,
): Promise<Session> {
  const session = await api.call(me, {});
  const login = params.get('login');
  if (login) rememberLogin(storage, login);
  lembrarSairDoProvedor(storage, params.get('sair') === '1');
  void requestPersistentStorage().catch(() => false);
  return session;
}
