// The lower half of the home: ready for offline use or what is missing, the device's storage, the versions.
import { Card, CardContent, Stack, Typography } from '@mui/material';
import { APP_VERSION } from '@novus/domain/constants';
import { OfflineReadiness } from './OfflineReadiness';
import { StoragePanel } from './StoragePanel';
import { useDeviceInfo } from './use-device-info';
import { useOfflineStatus } from './use-offline-status';

/** `version` changes after each sync or compression: the figures are read again. */
export function HomeStatus({ version }: { version: number }) {
  const device = useDeviceInfo();
  const offline = useOfflineStatus(version);
  return (
    <>
      <OfflineReadiness readiness={offline.readiness} />

      <StoragePanel status={offline} />

      <Card variant="outlined">
        <CardContent>
          <Stack spacing={0.5}>
            <Typography variant="body2" data-testid="app-version">
              Versão {APP_VERSION}
            </Typography>
            <Typography variant="body2" data-testid="db-version">
              {device.databaseError !== null
                ? `Banco de dados local: erro ao abrir (${device.databaseError})`
                : `Banco de dados local: versão ${device.databaseVersion ?? '…'}`}
            </Typography>
          </Stack>
        </CardContent>
      </Card>
    </>
  );
}
