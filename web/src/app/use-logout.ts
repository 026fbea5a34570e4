import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { logout } from '../api/auth';
import { useServices } from './services';

/** Log off / Logout: forget the device session, tell the server (best effort), go to `to`. */
export function useLogout(to: string): () => void {
  const { api, session } = useServices();
  const navigate = useNavigate();
  return useCallback(() => {
    session.clear();
    void logout(api).catch(() => undefined);
    navigate(to, { replace: true });
  }, [api, session, navigate, to]);
}
