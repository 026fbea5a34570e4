// The technician's home (SPEC.md section 1): greeting, per-flow banners, the day's actions, version and storage.
// On the first page, whole at once; what it reads from the device's database fills in when that code arrives.
import { Link as RouterLink } from 'react-router';
import { Alert, Button, CircularProgress, Stack, Typography } from '@mui/material';
import { canEnterBackoffice } from '@novus/domain/roles';
import { useSession } from '../shared/services';
import { useLogout } from '../shared/use-logout';
import { DicaInstalar } from './DicaInstalar';
import { HomeStatus } from './HomeStatus';
import { PendentesAntigos } from './PendentesAntigos';
import { useFieldWork } from './use-field-work';

/** 'Correções: 2 registros reprovados' (issue 24). */
export function correcoesText(count: number): string {
  return `Correções: ${count} ${count === 1 ? 'registro reprovado' : 'registros reprovados'}`;
}

export function HomePage() {
  const session = useSession();
  const logOff = useLogout('/');
  const { busy, status, error, pending, correcoes, version, compress, sync } = useFieldWork();
  const spinner = (kind: 'compress' | 'sync') =>
    busy === kind ? <CircularProgress size={20} color="inherit" aria-hidden /> : undefined;

  return (
    <Stack spacing={2}>
      <Typography component="h1" variant="h5">
        Olá, {session?.nome ?? ''}
      </Typography>

      {pending.length > 0 && (
        <Stack spacing={1} data-testid="pendentes">
          {pending.map(({ fluxo, label, count }) => (
            <Alert key={fluxo} severity={count > 0 ? 'warning' : 'success'} variant="outlined">
              {label} pendentes: {count}
            </Alert>
          ))}
        </Stack>
      )}

      {/* From the cached banners, so it is drawn with them and moves no button when the counts arrive. */}
      <PendentesAntigos pending={pending} />

      {correcoes > 0 && (
        <Alert
          severity="error"
          variant="outlined"
          data-testid="correcoes"
          action={
            <Button component={RouterLink} to="/correcoes" color="inherit" sx={{ minHeight: 48 }}>
              Ver
            </Button>
          }
        >
          {correcoesText(correcoes)}
        </Alert>
      )}

      {/* Known on the first paint (user agent, localStorage): above the actions, it moves none of them. */}
      <DicaInstalar />

      <Stack spacing={1.5}>
        <Button component={RouterLink} to="/projetos" variant="contained" size="large">
          Iniciar
        </Button>
        <Button component={RouterLink} to="/levantamento" variant="outlined" size="large">
          Levantamento
        </Button>
        <Button
          variant="outlined"
          size="large"
          disabled={busy !== null}
          startIcon={spinner('compress')}
          onClick={() => void compress()}
        >
          Compactar Imagens
        </Button>
        <Button
          variant="outlined"
          size="large"
          disabled={busy !== null}
          startIcon={spinner('sync')}
          onClick={() => void sync()}
        >
          Sincronizar
        </Button>
        {status !== null && (
          <Alert
            severity={error ? 'error' : busy ? 'info' : 'success'}
            role="status"
            data-testid="status-sincronizacao"
          >
            {status}
          </Alert>
        )}
        {session && canEnterBackoffice(session.roles) && (
          <Button component={RouterLink} to="/backoffice" variant="text" size="large">
            Back office
          </Button>
        )}
        <Button variant="text" size="large" color="error" onClick={logOff} disabled={busy !== null}>
          Log off
        </Button>
      </Stack>

      {/* Below the actions: what arrives late must not move a button under a finger. */}
      <HomeStatus version={version} previstos={pending} />
    </Stack>
  );
}
