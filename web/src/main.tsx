import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { CssBaseline, ThemeProvider } from '@mui/material';
import { ApiClient } from './api/client';
import { logError } from './api/logger';
import { ErrorBoundary } from './app/ErrorBoundary';
import { createAppRouter } from './app/router';
import { ServicesProvider, type Services } from './app/services';
import { theme } from './app/theme';
import { UpdatePrompt } from './app/UpdatePrompt';
import { HttpSyncTransport } from './api/sync-transport';
import { LocalStore } from './offline/local-store';
import { RecordStore } from './offline/records';
import { WorkTracker } from './offline/work';
import { SessionStore } from './offline/session';

const localStore = new LocalStore();
const services: Services = {
  session: new SessionStore(window.localStorage),
  localStore,
  api: new ApiClient(),
  records: new RecordStore(localStore.db),
  transport: new HttpSyncTransport(),
  work: new WorkTracker(),
};
const router = createAppRouter();

const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root');

createRoot(container).render(
  <StrictMode>
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <ErrorBoundary
        onError={(error) =>
          void logError(services.api, {
            message: 'RENDER CRASH',
            tecnico: services.session.get()?.nome,
            details: error,
          })
        }
      >
        <ServicesProvider services={services}>
          <RouterProvider router={router} />
          <UpdatePrompt />
        </ServicesProvider>
      </ErrorBoundary>
    </ThemeProvider>
  </StrictMode>,
);
