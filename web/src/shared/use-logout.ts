import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useShell } from './services';

/** Log off / Logout: forget the device session, tell the server (best effort), go to `to`. */
export function useLogout(to: string): () => void {
  const { api, session } = useShell();
  const navigate = useNavigate();
  return useCallback(() => {
    session.clear();
    void api.call('POST', '/api/auth/logout').catch(() => undefined);
    navigate(to, { replace: true });
  }, [api, session, navigate, to]);
}
