// The technician's screens beyond the home (SPEC.md section 2), per flow of the registry: its wizard under the
// project, its record screen and its gallery. One chunk with the registry; the wizards, records and galleries
// are chunks of their own (Leaflet, the flows' forms).
import { type ComponentType, lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import type { FlowDefinition } from '@novus/domain/flows/flow';
import { FLOWS } from '@novus/domain/flows/registry';
import type { FlowUi } from '../collect/flow-ui';
import { Loading } from '../shared/Loading';
import { ProjetosPage } from './ProjetosPage';
import { loadFlowUis, loadFlowWizard } from './wizard-code';

const ProjetoPage = lazy(() => import('./ProjetoPage').then((m) => ({ default: m.ProjetoPage })));
// The flows' UIs (FLOW_UI: their forms, react-hook-form, the fields' components) come with the wizard or the
// record screen; a flow whose UI is not built goes home, as an unknown address does.
type FlowScreen = ComponentType<{ flow: FlowDefinition; ui: FlowUi }>;

function lazyFlowScreen(load: () => Promise<FlowScreen>) {
  return lazy(() =>
    Promise.all([load(), loadFlowUis()]).then(([Screen, FLOW_UI]) => ({
      default: ({ flow }: { flow: FlowDefinition }) => <Screen flow={flow} ui={FLOW_UI[flow.key]} />,
    })),
  );
}

const FlowWizard = lazyFlowScreen(loadFlowWizard);
const FlowRecordPage = lazyFlowScreen(() =>
  import('../collect/shared/FlowRecordPage').then((m) => m.FlowRecordPage),
);
const LevantamentoPage = lazy(() =>
  import('../collect/levantamento/LevantamentoPage').then((m) => ({ default: m.LevantamentoPage })),
);
const CorrecoesPage = lazy(() =>
  import('../collect/correcoes/CorrecoesPage').then((m) => ({ default: m.CorrecoesPage })),
);
const ContaPage = lazy(() => import('../conta/ContaPage').then((m) => ({ default: m.ContaPage })));
const FotosPage = lazy(() => import('../collect/galeria/FotosPage').then((m) => ({ default: m.FotosPage })));

export function FieldRoutes() {
  return (
    <Routes>
      <Route path="projetos" element={<ProjetosPage />} />
      <Route
        path="conta"
        element={
          <Loading>
            <ContaPage />
          </Loading>
        }
      />
      <Route
        path="projeto/:projetoId"
        element={
          <Loading>
            <ProjetoPage />
          </Loading>
        }
      />
      <Route
        path="levantamento"
        element={
          <Loading>
            <LevantamentoPage />
          </Loading>
        }
      />
      <Route
        path="correcoes"
        element={
          <Loading>
            <CorrecoesPage />
          </Loading>
        }
      />
      {FLOWS.flatMap((flow) => [
        // keyed so a change of flow remounts the wizard or the record screen
        <Route
          key={`${flow.key}-wizard`}
          path={`projeto/:projetoId/${flow.menuRoute}`}
          element={
            <Loading>
              <FlowWizard key={flow.key} flow={flow} />
            </Loading>
          }
        />,
        <Route
          key={`${flow.key}-record`}
          path={`${flow.recordPath}/:id`}
          element={
            <Loading>
              <FlowRecordPage key={flow.key} flow={flow} />
            </Loading>
          }
        />,
        <Route
          key={`${flow.key}-fotos`}
          path={`${flow.recordPath}/:id/fotos`}
          element={
            <Loading>
              <FotosPage flow={flow} />
            </Loading>
          }
        />,
      ])}
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}
