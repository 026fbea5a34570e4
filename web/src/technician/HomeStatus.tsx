// The lower half of the home: the device's storage, ready for offline use or what is missing, the versions.
import { useState } from 'react';
import { Card, CardContent, Stack, Typography } from '@mui/material';
import { APP_VERSION } from '@novus/domain/constants';
import { OfflineReadiness } from './OfflineReadiness';
import { StoragePanel } from './StoragePanel';
import { useDeviceInfo } from './use-device-info';
import { useOfflineStatus } from './use-offline-status';

/** `version` changes after each sync or compression: the figures are read again. */
export function HomeStatus({
  version,
  previstos,
}: {
  version: number;
  /** The home's banners: the storage panel keeps a line for each flow they say is pending. */
  previstos: readonly { fluxo: string; label: string; count: number }[];
}) {
  const device = useDeviceInfo();
  // Counts the maps removed here: the panel and 'Pronto para uso offline' are read again after each.
  const [removals, setRemovals] = useState(0);
  const offline = useOfflineStatus(version, removals);
  return (
    <>
      <StoragePanel
        status={offline}
        previstos={previstos}
        onMapaRemoved={() => setRemovals((count) => count + 1)}
      />

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

      {/* Last: it appears once the device answers, and moves nothing above it. */}
      <OfflineReadiness readiness={offline.readiness} />
    </>
  );
}
