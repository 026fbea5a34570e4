import { lazy, Suspense, type ReactNode } from 'react';
import { FLOWS } from '@novus/domain/flows/registry';
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

// The wizards carry Leaflet; the pending list, records and galleries carry the forms: none of it slows the home.
const UnidadeWizard = lazy(() =>
  import('../collect/unidade/UnidadeWizard').then((m) => ({ default: m.UnidadeWizard })),
);
const PosteWizard = lazy(() =>
  import('../collect/poste/PosteWizard').then((m) => ({ default: m.PosteWizard })),
);
const LevantamentoPage = lazy(() =>
  import('../collect/levantamento/LevantamentoPage').then((m) => ({ default: m.LevantamentoPage })),
);
const UnidadeEdit = lazy(() =>
  import('../collect/unidade/UnidadeEdit').then((m) => ({ default: m.UnidadeEdit })),
);
const PosteShow = lazy(() => import('../collect/poste/PosteShow').then((m) => ({ default: m.PosteShow })));
const FotosPage = lazy(() => import('../collect/galeria/FotosPage').then((m) => ({ default: m.FotosPage })));

function Loading({ children }: { children: ReactNode }) {
  return <Suspense fallback={<LinearProgress aria-label="Carregando" />}>{children}</Suspense>;
}

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
                {
                  path: 'projeto/:projetoId/addUnidades',
                  element: (
                    <Loading>
                      <UnidadeWizard />
                    </Loading>
                  ),
                },
                {
                  path: 'projeto/:projetoId/addPostes',
                  element: (
                    <Loading>
                      <PosteWizard />
                    </Loading>
                  ),
                },
                {
                  path: 'levantamento',
                  element: (
                    <Loading>
                      <LevantamentoPage />
                    </Loading>
                  ),
                },
                {
                  path: 'unidade/:id',
                  element: (
                    <Loading>
                      <UnidadeEdit />
                    </Loading>
                  ),
                },
                {
                  path: 'poste/:id',
                  element: (
                    <Loading>
                      <PosteShow />
                    </Loading>
                  ),
                },
                // One gallery for every flow of the registry: /unidade/:id/fotos, /poste/:id/fotos, ...
                ...FLOWS.map((flow) => ({
                  path: `${flow.apiPath}/:id/fotos`,
                  element: (
                    <Loading>
                      <FotosPage flow={flow} />
                    </Loading>
                  ),
                })),
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
