// The back office's API client: any 401 ends the session and sends the user to log in again.
import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { me } from '@novus/domain/api/auth';
import { ApiClient } from '../api/client';
import { logError } from '../api/logger';
import { useShell } from '../shared/services';

interface BackofficeApi {
  api: ApiClient;
  /** Sends a failure to /api/logger with the user's name. */
  log: (message: string, details: unknown) => void;
}

const BackofficeApiContext = createContext<BackofficeApi | null>(null);

export function BackofficeApiProvider({ children }: { children: ReactNode }) {
  const { session, api: plainApi } = useShell();
  const navigate = useNavigate();
  const value = useMemo<BackofficeApi>(() => {
    const api = new ApiClient({
      onUnauthorized: () => {
        session.clear();
        navigate('/login?target=backoffice', { replace: true });
      },
    });
    return {
      api,
      log: (message, details) => void logError(plainApi, { message, tecnico: session.get()?.nome, details }),
    };
  }, [session, navigate, plainApi]);

  // The device session may outlive the server's (expired cookie, roles changed): check once on entry.
  useEffect(() => {
    value.api.call(me, {}).then(
      (claims) => {
        if (JSON.stringify(claims) !== JSON.stringify(session.get())) session.set(claims);
      },
      () => undefined, // 401 is handled by onUnauthorized; offline keeps the device session
    );
  }, [value, session]);

  return <BackofficeApiContext.Provider value={value}>{children}</BackofficeApiContext.Provider>;
}

export function useBackofficeApi(): BackofficeApi {
  const value = useContext(BackofficeApiContext);
  if (value === null) throw new Error('useBackofficeApi outside BackofficeApiProvider');
  return value;
}
