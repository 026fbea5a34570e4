import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { LinearProgress } from '@mui/material';
import { LoginPage } from '../login/LoginPage';
import { HomePage } from '../technician/HomePage';
import { ProjetoPage } from '../technician/ProjetoPage';
import { ProjetosPage } from '../technician/ProjetosPage';
import { TechnicianLayout } from '../technician/TechnicianLayout';
import { RequireBackoffice, RequireSession } from './guards';
import { RouteError } from './RouteError';

// The back office carries the data grid: technicians on phones never download it.
const BackofficeApp = lazy(() =>
  import('../backoffice/BackofficeApp').then((m) => ({ default: m.BackofficeApp })),
);

export function createAppRouter() {
  return createBrowserRouter([
    {
      errorElement: <RouteError />,
      children: [
        { path: '/login', element: <LoginPage /> },
        {
          element: <RequireSession />,
          children: [
            {
              element: <TechnicianLayout />,
              children: [
                { index: true, element: <HomePage /> },
                { path: 'projetos', element: <ProjetosPage /> },
                { path: 'projeto/:projetoId', element: <ProjetoPage /> },
              ],
            },
          ],
        },
        {
          path: '/backoffice/*',
          element: (
            <RequireBackoffice>
              <Suspense fallback={<LinearProgress aria-label="Carregando" />}>
                <BackofficeApp />
              </Suspense>
            </RequireBackoffice>
          ),
        },
        { path: '*', element: <Navigate to="/" replace /> },
      ],
    },
  ]);
}
