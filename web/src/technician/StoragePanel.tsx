// The device's storage on the home: persistent or not, usage of the quota, what waits for the server.
import {
  Alert,
  Button,
  Card,
  CardContent,
  CircularProgress,
  LinearProgress,
  Stack,
  Typography,
} from '@mui/material';
import { formatStorageUsage } from '../offline/storage';
import {
  copiasText,
  oldestPendingText,
  pendingFlowText,
  persistText,
  storageWarnings,
} from '../offline/storage-panel';
import { MapasBaixados } from './MapasBaixados';
import { useExportPendentes } from './use-export-pendentes';
import type { OfflineStatus } from './use-offline-status';

/** A line whose figure the device has not given yet: it takes its place, so the figure's arrival moves nothing. */
const AINDA = '…';

export function StoragePanel({
  status,
  previstos,
  onMapaRemoved,
}: {
  status: OfflineStatus;
  /** The flows the home's banners (from the last visit) say have pending records: their lines wait with '…'. */
  previstos: readonly { fluxo: string; label: string; count: number }[];
  onMapaRemoved: () => void;
}) {
  const { usage, pending, persisted, readAt, mapas, copias } = status;
  // While the browser has not answered, the bar waits at zero (so its arrival moves nothing).
  const percent =
    usage === undefined
      ? 0
      : usage !== null && usage.quotaBytes > 0
        ? (usage.usedBytes / usage.quotaBytes) * 100
        : null;
  const warnings = storageWarnings(usage ?? null, pending?.oldest ?? null, readAt);
  const exporter = useExportPendentes();
  return (
    <Card
      variant="outlined"
      component="section"
      aria-labelledby="armazenamento-titulo"
      data-testid="painel-armazenamento"
    >
      <CardContent sx={{ '&:last-child': { pb: 2 } }}>
        <Stack spacing={0.75}>
          <Typography id="armazenamento-titulo" component="h2" variant="subtitle1">
            Armazenamento do aparelho
          </Typography>
          <Typography variant="body2" data-testid="storage-usage">
            Armazenamento:{' '}
            {usage === undefined ? '…' : usage !== null ? formatStorageUsage(usage) : 'indisponível'}
          </Typography>
          {percent !== null && (
            <LinearProgress
              variant="determinate"
              value={Math.min(100, percent)}
              color={percent > 80 ? 'error' : 'primary'}
              aria-label="Uso do armazenamento"
            />
          )}
          <Typography variant="body2" data-testid="storage-persist">
            {persistText(persisted)}
          </Typography>
          {pending !== null
            ? pending.flows.map((flow) => (
                <Typography key={flow.fluxo} variant="body2" data-testid={`pendentes-${flow.fluxo}`}>
                  {pendingFlowText(flow)}
                </Typography>
              ))
            : previstos
                .filter(({ count }) => count > 0)
                .map(({ fluxo, label }) => (
                  <Typography key={fluxo} variant="body2">
                    {label}: {AINDA}
                  </Typography>
                ))}
          <Typography variant="body2" data-testid="pendente-mais-antigo">
            {pending !== null ? oldestPendingText(pending.oldest, readAt) : `Pendente mais antigo: ${AINDA}`}
          </Typography>
          <Typography variant="body2" data-testid="copias-seguranca">
            {copias !== null ? copiasText(copias) : `Cópias de segurança: ${AINDA}`}
          </Typography>
          {warnings.map((warning) => (
            <Alert key={warning} severity="error" variant="outlined" data-testid="aviso-armazenamento">
              {warning}
            </Alert>
          ))}
          <Button
            variant="outlined"
            disabled={exporter.busy}
            startIcon={exporter.busy ? <CircularProgress size={20} color="inherit" aria-hidden /> : undefined}
            onClick={() => void exporter.exportNow()}
          >
            Exportar pendentes
          </Button>
          {exporter.message !== null && (
            <Alert
              severity={exporter.message.error ? 'error' : 'info'}
              role="status"
              data-testid="status-exportacao"
            >
              {exporter.message.text}
            </Alert>
          )}
          {/* Last: it arrives with the device's cache, and moves nothing above it. */}
          <MapasBaixados mapas={mapas} onRemoved={onMapaRemoved} />
        </Stack>
      </CardContent>
    </Card>
  );
}
