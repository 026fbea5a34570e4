import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { aoSairDoNovus } from '../login/provedor';
import { useShell } from './services';

/**
 * Log off / Logout: forget the device session, tell the server (best effort), go to `to`; after a sign-in with the
 * company's account whose provider has a logout, the login page then offers it (issue 42).
 */
export function useLogout(to: string): () => void {
  const { api, session } = useShell();
  const navigate = useNavigate();
  return useCallback(() => {
    aoSairDoNovus(window.localStorage);
    session.clear();
    void api.call('POST', '/api/auth/logout').catch(() => undefined);
    navigate(to, { replace: true });
  }, [api, session, navigate, to]);
}
