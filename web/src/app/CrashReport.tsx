// What a render crash shows (SPEC.md section 8): the fixed text plus the error details.
import { Alert, AlertTitle, Box } from '@mui/material';
import { RENDER_CRASH } from '@novus/domain/messages';

export function CrashReport({ error }: { error: unknown }) {
  const details =
    error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error);
  return (
    <Box component="main" sx={{ p: 2 }}>
      <Alert severity="error">
        <AlertTitle>{RENDER_CRASH}</AlertTitle>
        <Box component="pre" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', m: 0, fontSize: 12 }}>
          {details}
        </Box>
      </Alert>
    </Box>
  );
}
