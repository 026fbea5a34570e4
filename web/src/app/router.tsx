import { lazy, Suspense, type ReactNode } from 'react';
import { FLOWS } from '@novus/domain/flows/registry';
import type { FlowDefinition } from '@novus/domain/flows/flow';
import { createBrowserRouter, Navigate } from 'react-router';
import { LinearProgress } from '@mui/material';
import { LoginPage } from '../login/LoginPage';
import { HomePage } from '../technician/HomePage';
import { ProjetosPage } from '../technician/ProjetosPage';
import { TechnicianLayout } from '../technician/TechnicianLayout';
import { RequireBackoffice, RequireSession } from './guards';
import { RouteError } from './RouteError';

// The back office carries the data grid: technicians on phones never download it.
const BackofficeApp = lazy(() =>
  import('../backoffice/BackofficeApp').then((m) => ({ default: m.BackofficeApp })),
);

// The wizards carry Leaflet; the menu, pending list, records and galleries carry the flows' forms: none of it
// slows the home.
const ProjetoPage = lazy(() => import('../technician/ProjetoPage').then((m) => ({ default: m.ProjetoPage })));
// The flows' UIs (FLOW_UI: their forms, react-hook-form, the fields' components) come with the wizard or the
// record screen; a flow whose UI is not built goes home, as an unknown address does.
const FlowWizard = lazy(() =>
  Promise.all([import('../collect/shared/FlowWizard'), import('../collect/flows')]).then(
    ([m, { FLOW_UI }]) => ({
      default: ({ flow }: { flow: FlowDefinition }) => {
        const ui = FLOW_UI[flow.key];
        return ui ? <m.FlowWizard flow={flow} ui={ui} /> : <Navigate to="/" replace />;
      },
    }),
  ),
);
const FlowRecordPage = lazy(() =>
  Promise.all([import('../collect/shared/FlowRecordPage'), import('../collect/flows')]).then(
    ([m, { FLOW_UI }]) => ({
      default: ({ flow }: { flow: FlowDefinition }) => {
        const ui = FLOW_UI[flow.key];
        return ui ? <m.FlowRecordPage flow={flow} ui={ui} /> : <Navigate to="/" replace />;
      },
    }),
  ),
);
const LevantamentoPage = lazy(() =>
  import('../collect/levantamento/LevantamentoPage').then((m) => ({ default: m.LevantamentoPage })),
);
const FotosPage = lazy(() => import('../collect/galeria/FotosPage').then((m) => ({ default: m.FotosPage })));

function Loading({ children }: { children: ReactNode }) {
  return <Suspense fallback={<LinearProgress aria-label="Carregando" />}>{children}</Suspense>;
}

/** The wizard and record screen of each flow (those whose UI is not built go home), keyed so a flow change remounts. */
function flowRoutes() {
  return FLOWS.flatMap((flow) => [
    {
      path: `projeto/:projetoId/${flow.menuRoute}`,
      element: (
        <Loading>
          <FlowWizard key={flow.key} flow={flow} />
        </Loading>
      ),
    },
    {
      path: `${flow.recordPath}/:id`,
      element: (
        <Loading>
          <FlowRecordPage key={flow.key} flow={flow} />
        </Loading>
      ),
    },
  ]);
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
                {
                  path: 'projeto/:projetoId',
                  element: (
                    <Loading>
                      <ProjetoPage />
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
                // Per flow of the registry: its wizard under the project and its record screen.
                ...flowRoutes(),
                // One gallery for every flow of the registry: /unidade/:id/fotos, /poste/:id/fotos, ...
                ...FLOWS.map((flow) => ({
                  path: `${flow.recordPath}/:id/fotos`,
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
