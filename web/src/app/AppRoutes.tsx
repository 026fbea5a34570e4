// The routes of SPEC.md section 2. Only the login and the technician's home are on the first page; every other
// screen (the flows' wizards and records with the registry, Leaflet and the forms; the back office with the data
// grid) is a chunk of its own, fetched when first opened and kept offline by the service worker.
import { lazy } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { logError } from '../api/logger';
import { LoginPage } from '../login/LoginPage';
import { HomePage } from '../technician/HomePage';
import { TechnicianLayout } from '../technician/TechnicianLayout';
import { ErrorBoundary } from './ErrorBoundary';
import { Loading } from '../shared/Loading';
import { RequireBackoffice, RequireSession } from './guards';
import { useShell } from '../shared/services';

const FieldRoutes = lazy(() => import('../technician/FieldRoutes').then((m) => ({ default: m.FieldRoutes })));
const BackofficeApp = lazy(() =>
  import('../backoffice/BackofficeApp').then((m) => ({ default: m.BackofficeApp })),
);

export function AppRoutes() {
  const { api, session } = useShell();
  const { pathname } = useLocation();
  return (
    // A crash in a screen shows there and is logged; going to another address tries again.
    <ErrorBoundary
      resetKey={pathname}
      onError={(error) =>
        void logError(api, { message: 'RENDER CRASH', tecnico: session.get()?.nome, details: error })
      }
    >
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route element={<RequireSession />}>
          <Route element={<TechnicianLayout />}>
            <Route index element={<HomePage />} />
            {/* Projects, the wizards, records, galleries and Levantamento; an unknown address goes home. */}
            <Route
              path="*"
              element={
                <Loading>
                  <FieldRoutes />
                </Loading>
              }
            />
          </Route>
        </Route>
        <Route
          path="/backoffice/*"
          element={
            <RequireBackoffice>
              <Loading>
                <BackofficeApp />
              </Loading>
            </RequireBackoffice>
          }
        />
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
    </ErrorBoundary>
  );
}
