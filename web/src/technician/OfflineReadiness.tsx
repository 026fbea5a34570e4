// 'Pronto para uso offline', or what the phone still lacks before the network goes.
import { Alert, AlertTitle } from '@mui/material';
import type { ReadinessSummary } from '../offline/readiness';

export function OfflineReadiness({ readiness }: { readiness: ReadinessSummary | null }) {
  if (readiness === null) return null;
  return (
    <Alert severity={readiness.ready ? 'success' : 'warning'} variant="outlined" data-testid="pronto-offline">
      <AlertTitle sx={{ mb: readiness.ready ? 0 : undefined }}>{readiness.title}</AlertTitle>
      {readiness.missing.length > 0 && `Falta: ${readiness.missing.join('; ')}.`}
    </Alert>
  );
}
