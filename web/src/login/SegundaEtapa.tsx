// The login's second step, 'Verificação em duas etapas' (issue 42): the 'Código de verificação' of the account's
// authenticator app, or, for a role the administrador requires it of, its set-up first (the QR code and the
// secret as text); then, when that login turned it on, the ten recovery codes, shown once. Loaded only when a
// password opens this step, so the login page stays as light as it was.
import { useEffect, useState } from 'react';
import { Alert, Box, Button, CircularProgress, Stack, Typography } from '@mui/material';
import { SEGUNDO_FATOR_TEXTS } from '@novus/domain/auth';
import { segundoFatorNoLogin } from '@novus/domain/api/segundo-fator';
import { ApiError } from '../api/client';
import { useShell } from '../shared/services';
import { LoginField } from './LoginField';
import type { SegundaEtapa as Modo } from './submit';

export interface NovoSegredo {
  segredo: string;
  uri: string;
  qrSvg: string;
}

/** The QR code an authenticator app scans, and the secret for typing in instead. */
export function SegredoNovo({ novo }: { novo: NovoSegredo }) {
  return (
    <Stack spacing={1} alignItems="center">
      <Box
        component="img"
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(novo.qrSvg)}`}
        alt="QR code para o aplicativo autenticador"
        sx={{ width: 200, height: 200 }}
      />
      <Typography variant="body2">Ou digite no aplicativo o código:</Typography>
      <Typography
        component="code"
        data-testid="segredo"
        sx={{ fontFamily: 'monospace', wordBreak: 'break-all', fontSize: '1rem' }}
      >
        {novo.segredo.replace(/(.{4})/g, '$1 ').trim()}
      </Typography>
    </Stack>
  );
}

/** The ten recovery codes, with what they are for; shown once. */
export function CodigosRecuperacao({ codigos }: { codigos: readonly string[] }) {
  return (
    <Stack spacing={1}>
      <Alert severity="warning">
        Guarde estes códigos de recuperação em lugar seguro. Cada um permite entrar uma vez sem o aplicativo;
        eles não serão mostrados de novo.
      </Alert>
      <Box
        component="ul"
        aria-label="Códigos de recuperação"
        sx={{ columns: 2, fontFamily: 'monospace', m: 0 }}
      >
        {codigos.map((codigo) => (
          <li key={codigo}>{codigo}</li>
        ))}
      </Box>
    </Stack>
  );
}

export function SegundaEtapa(props: {
  modo: Modo;
  login: string;
  password: string;
  error: string | undefined;
  submitting: boolean;
  onBack: () => void;
}) {
  const { modo, login, password, error, submitting, onBack } = props;
  const { api } = useShell();
  const [novo, setNovo] = useState<NovoSegredo | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (modo !== 'configurar') return;
    let active = true;
    api.call(segundoFatorNoLogin, { body: { login, password } }).then(
      (answer) => active && setNovo(answer),
      (reason: unknown) =>
        active &&
        setFailure(
          reason instanceof ApiError && reason.serverMessage
            ? reason.serverMessage
            : 'Não foi possível preparar a verificação em duas etapas. Tente novamente.',
        ),
    );
    return () => {
      active = false;
    };
  }, [api, modo, login, password]);

  return (
    <Stack spacing={2}>
      <Typography component="h2" variant="h6">
        {SEGUNDO_FATOR_TEXTS.title}
      </Typography>
      {modo === 'configurar' && (
        <>
          <Alert severity="info">
            {SEGUNDO_FATOR_TEXTS.configurar} Leia o QR code com um aplicativo autenticador (Google
            Authenticator, Microsoft Authenticator, FreeOTP) e informe o código que ele mostrar.
          </Alert>
          {failure && <Alert severity="error">{failure}</Alert>}
          {!novo && !failure && <CircularProgress aria-label="Preparando" sx={{ alignSelf: 'center' }} />}
          {novo && <SegredoNovo novo={novo} />}
        </>
      )}
      {modo === 'codigo' && (
        <Typography variant="body2">
          Informe o código de 6 dígitos do aplicativo autenticador, ou um dos códigos de recuperação.
        </Typography>
      )}
      <LoginField
        label={SEGUNDO_FATOR_TEXTS.codigo}
        name="codigo"
        autoComplete="one-time-code"
        autoCapitalize="none"
        error={error}
      />
      <Button
        type="submit"
        variant="contained"
        size="large"
        disabled={submitting || (modo === 'configurar' && !novo)}
        startIcon={submitting ? <CircularProgress size={18} color="inherit" /> : undefined}
      >
        Entrar
      </Button>
      <Button variant="outlined" onClick={onBack}>
        Voltar
      </Button>
    </Stack>
  );
}
