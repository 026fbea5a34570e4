// The back office's API client: any 401 ends the session and sends the user to log in again.
import { createContext, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { me } from '@novus/domain/api/auth';
import { ApiClient } from '../api/client';
import { logError } from '../api/logger';
import type { SessionStore } from '../offline/session';
import { useShell } from '../shared/services';

interface BackofficeApi {
  api: ApiClient;
  /** Sends a failure to /api/logger with the user's name. */
  log: (message: string, details: unknown) => void;
}

const BackofficeApiContext = createContext<BackofficeApi | null>(null);

export function BackofficeApiProvider({ children }: { children: ReactNode }) {
  const { session, api: plainApi } = useShell();
  // useNavigate's function changes with every location: read through a ref, so that the client (and the check on
  // entry below) is made once, not again on each navigation.
  const navigateHere = useNavigate();
  const navigate = useRef(navigateHere);
  useEffect(() => {
    navigate.current = navigateHere;
  }, [navigateHere]);
  const value = useMemo<BackofficeApi>(() => {
    const api = new ApiClient({
      onUnauthorized: () =>
        endSession(session, () => navigate.current('/login?target=backoffice', { replace: true })),
    });
    return {
      api,
      log: (message, details) => void logError(plainApi, { message, tecnico: session.get()?.nome, details }),
    };
  }, [session, plainApi]);

  // The device session may outlive the server's (expired cookie, roles changed): check once on entry.
  useEffect(() => {
    value.api.call(me, {}).then(
      (claims) => {
        if (session.get() !== null && JSON.stringify(claims) !== JSON.stringify(session.get()))
          session.set(claims);
      },
      () => undefined, // 401 is handled by onUnauthorized; offline keeps the device session
    );
  }, [value, session]);

  return <BackofficeApiContext.Provider value={value}>{children}</BackofficeApiContext.Provider>;
}

/**
 * A 401 ends the device session and sends the user to log in. Once: when there is no session left (Logout cleared
 * it, and the guard has already sent the user to the login), a late answer changes nothing; it would otherwise
 * navigate again and reload the login form the user has begun to fill in.
 */
export function endSession(session: Pick<SessionStore, 'get' | 'clear'>, toLogin: () => void): void {
  if (session.get() === null) return;
  session.clear();
  toLogin();
}

export function useBackofficeApi(): BackofficeApi {
  const value = useContext(BackofficeApiContext);
  if (value === null) throw new Error('useBackofficeApi outside BackofficeApiProvider');
  return value;
}
