// The technician's home (SPEC.md section 1): greeting, the day's actions, version and storage.
import { Link as RouterLink } from 'react-router';
import { Button, Card, CardContent, Stack, Typography } from '@mui/material';
import { APP_VERSION } from '@novus/domain/constants';
import { useSession } from '../app/services';
import { useLogout } from '../app/use-logout';
import { useDeviceInfo } from './use-device-info';

const SOON_ID = 'home-em-breve';

export function HomePage() {
  const session = useSession();
  const logOff = useLogout('/');
  const device = useDeviceInfo();

  return (
    <Stack spacing={2}>
      <Typography component="h1" variant="h5">
        Olá, {session?.nome ?? ''}
      </Typography>

      <Stack spacing={1.5}>
        <Button component={RouterLink} to="/projetos" variant="contained" size="large">
          Iniciar
        </Button>
        <Button variant="outlined" size="large" disabled aria-describedby={SOON_ID}>
          Compactar Imagens
        </Button>
        <Button variant="outlined" size="large" disabled aria-describedby={SOON_ID}>
          Sincronizar
        </Button>
        <Typography id={SOON_ID} variant="body2" color="text.secondary">
          Compactar Imagens e Sincronizar: Disponível em breve.
        </Typography>
        <Button variant="text" size="large" color="error" onClick={logOff}>
          Log off
        </Button>
      </Stack>

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
            <Typography variant="body2" data-testid="storage-usage">
              Armazenamento: {device.storage ?? 'indisponível'}
            </Typography>
          </Stack>
        </CardContent>
      </Card>
    </Stack>
  );
}
