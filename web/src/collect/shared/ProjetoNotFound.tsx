import { Link as RouterLink } from 'react-router';
import { Alert, Button, LinearProgress, Stack } from '@mui/material';

/** While the project loads, or when it is not on this device (never synced, or removed by the last sync). */
export function ProjetoNotFound({ loaded }: { loaded: boolean }) {
  if (!loaded) return <LinearProgress aria-label="Carregando" />;
  return (
    <Stack spacing={2}>
      <Alert severity="error">Projeto não encontrado neste aparelho. Sincronize para baixá-lo.</Alert>
      <Button component={RouterLink} to="/projetos" variant="outlined">
        Voltar
      </Button>
    </Stack>
  );
}
