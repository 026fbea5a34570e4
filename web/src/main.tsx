import { loadDevice } from './app/device-boot';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { CssBaseline, ThemeProvider } from '@mui/material';
import { ApiClient } from './api/client';
import { logError } from './api/logger';
import { AppRoutes } from './app/AppRoutes';
import { ErrorBoundary } from './app/ErrorBoundary';
import { DeviceLoader, ServicesProvider, type Shell } from './shared/services';
import { theme } from './app/theme';
import { DatabaseNotice } from './app/DatabaseNotice';
import { UpdatePrompt } from './app/UpdatePrompt';
import { DeviceLog } from './offline/device-log';
import { LocalReader } from './offline/local-reader';
import { TabCoordinator } from './offline/tabs';
import { WorkTracker } from './offline/work';
import { SessionStore } from './offline/session';

const api = new ApiClient();
const work = new WorkTracker();
// Dexie, the flow registry and zod: fetched by the screens that write or sync, never before the first page shows
// (issues 13 and 41).
const device = new DeviceLoader(loadDevice);
const shell: Shell = {
  session: new SessionStore(window.localStorage),
  api,
  work,
  tabs: TabCoordinator.forBrowser(work),
  log: new DeviceLog(window.localStorage, (entry) => api.call('POST', '/api/logger', entry)),
  // A database older than this app's is upgraded by Dexie before the home reads it.
  reader: new LocalReader({ upgrade: () => device.promise.then(({ localStore }) => localStore.info()) }),
};
// What the device logged while offline goes as soon as the network is back (and with the next sync).
void shell.log.flush();
window.addEventListener('online', () => void shell.log.flush());

const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root');

const root = createRoot(container);
// A transition: React renders the first screen in slices and lets the phone answer between them, while the
// boot screen of index.html stays until the first screen is whole.
startTransition(() =>
  root.render(
    <StrictMode>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <ErrorBoundary
          onError={(error) =>
            void logError(shell.api, {
              message: 'RENDER CRASH',
              tecnico: shell.session.get()?.nome,
              details: error,
            })
          }
        >
          <ServicesProvider shell={shell} device={device}>
            <BrowserRouter>
              <AppRoutes />
            </BrowserRouter>
            <UpdatePrompt />
            <DatabaseNotice />
          </ServicesProvider>
        </ErrorBoundary>
      </ThemeProvider>
    </StrictMode>,
  ),
);
