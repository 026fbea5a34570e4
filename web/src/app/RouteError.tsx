// The router catches crashes inside routes before any outer boundary: show and log them here.
import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { logError } from '../api/logger';
import { CrashReport } from './CrashReport';
import { useServices } from './services';

export function RouteError() {
  const error = useRouteError();
  const { api, session } = useServices();
  useEffect(() => {
    void logError(api, { message: 'RENDER CRASH', tecnico: session.get()?.nome, details: error });
  }, [api, session, error]);
  return <CrashReport error={error} />;
}
