// The back office's routes, loaded on demand (see app/router.tsx).
import { Navigate, Route, Routes } from 'react-router';
import { BackofficeApiProvider } from './backoffice-api';
import { BackofficeHome } from './BackofficeHome';
import { BackofficeLayout } from './BackofficeLayout';
import { ClienteForm } from './clientes/ClienteForm';
import { ClienteList } from './clientes/ClienteList';
import { PlaceholderPage } from './PlaceholderPage';

export function BackofficeApp() {
  return (
    <BackofficeApiProvider>
      <BackofficeLayout>
        <Routes>
          <Route index element={<BackofficeHome />} />
          <Route path="cliente" element={<ClienteList />} />
          <Route path="cliente/add" element={<ClienteForm key="add" />} />
          <Route path="cliente/:clienteId" element={<ClienteForm key="edit" />} />
          <Route path="projeto/*" element={<PlaceholderPage title="Projetos" />} />
          <Route path="usuario/*" element={<PlaceholderPage title="Usuários" />} />
          <Route path="extrator" element={<PlaceholderPage title="Extrator" />} />
          <Route path="supervisor" element={<PlaceholderPage title="Supervisão de Projetos" />} />
          <Route path="*" element={<Navigate to="/backoffice" replace />} />
        </Routes>
      </BackofficeLayout>
    </BackofficeApiProvider>
  );
}
