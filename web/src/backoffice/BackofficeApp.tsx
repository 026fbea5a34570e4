// The back office's routes, loaded on demand (see app/router.tsx).
import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { LinearProgress } from '@mui/material';
import { AuditoriaPage } from './auditoria/AuditoriaPage';
import { BackofficeApiProvider } from './backoffice-api';
import { BackofficeHome } from './BackofficeHome';
import { BackofficeLayout } from './BackofficeLayout';
import { ClienteForm } from './clientes/ClienteForm';
import { ClienteList } from './clientes/ClienteList';
import { ExtratorPage } from './extrator/ExtratorPage';
import { PendentesImportPage } from './pendentes/PendentesImportPage';
import { ProjetoList } from './projetos/ProjetoList';
import { RelatorioPage } from './relatorios/RelatorioPage';
import { UsuarioForm } from './usuarios/UsuarioForm';
import { UsuarioList } from './usuarios/UsuarioList';
import { WebhooksPage } from './webhooks/WebhooksPage';

// Leaflet and the KML/point-file parsers (proj4, togeojson, papaparse) are needed on the project form only.
const ProjetoForm = lazy(() => import('./projetos/ProjetoForm').then((m) => ({ default: m.ProjetoForm })));
// Leaflet and the cluster worker likewise load only when the supervisor map opens.
const SupervisorPage = lazy(() =>
  import('./supervisor/SupervisorPage').then((m) => ({ default: m.SupervisorPage })),
);

const ContaPage = lazy(() => import('../conta/ContaPage').then((m) => ({ default: m.ContaPage })));

// The review screen draws the record's point with Leaflet: loaded when it opens (issue 24).
const RevisaoPage = lazy(() => import('./revisao/RevisaoPage').then((m) => ({ default: m.RevisaoPage })));

export function BackofficeApp() {
  return (
    <BackofficeApiProvider>
      <BackofficeLayout>
        <Suspense fallback={<LinearProgress aria-label="Carregando" />}>
          <Routes>
            <Route index element={<BackofficeHome />} />
            <Route path="cliente" element={<ClienteList />} />
            <Route path="cliente/add" element={<ClienteForm key="add" />} />
            <Route path="cliente/:clienteId" element={<ClienteForm key="edit" />} />
            <Route path="projeto" element={<ProjetoList />} />
            <Route path="projeto/add" element={<ProjetoForm key="add" />} />
            <Route path="projeto/:projetoId" element={<ProjetoForm key="edit" />} />
            <Route path="usuario" element={<UsuarioList />} />
            <Route path="usuario/add" element={<UsuarioForm key="add" />} />
            <Route path="usuario/:userId" element={<UsuarioForm key="edit" />} />
            <Route path="auditoria" element={<AuditoriaPage />} />
            <Route path="pendentes" element={<PendentesImportPage />} />
            <Route path="extrator" element={<ExtratorPage />} />
            <Route path="relatorio" element={<RelatorioPage />} />
            <Route path="supervisor" element={<SupervisorPage />} />
            <Route path="revisao" element={<RevisaoPage />} />
            <Route path="webhooks" element={<WebhooksPage />} />
            <Route path="conta" element={<ContaPage />} />
            <Route path="*" element={<Navigate to="/backoffice" replace />} />
          </Routes>
        </Suspense>
      </BackofficeLayout>
    </BackofficeApiProvider>
  );
}
