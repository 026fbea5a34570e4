import { lazy, Suspense, useEffect, useState, type FormEvent } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { Alert, Box, Button, CircularProgress, Paper, Stack, Typography } from '@mui/material';
import { useSession, useShell } from '../shared/services';
import type { Session } from '../offline/session';
import type { LoginErrors, SegundaEtapa as Modo } from './submit';
import { LoginField } from './LoginField';
import { esquecerSairDoProvedor, oferecerSairDoProvedor } from './provedor';
import { destinationFor } from '@novus/domain/entrada';

const LOGIN_FAILED = 'Não foi possível entrar. Verifique a conexão e tente novamente.';

// 'Verificação em duas etapas' (issue 42): fetched only when a password opens that step.
const SegundaEtapa = lazy(() => import('./SegundaEtapa').then((m) => ({ default: m.SegundaEtapa })));
// The company's account's parts (issue 42): fetched only where they show.
const ContaEmpresa = lazy(() => import('./ContaEmpresa').then((m) => ({ default: m.ContaEmpresa })));
const VoltaDaEmpresa = lazy(() => import('./ContaEmpresa').then((m) => ({ default: m.VoltaDaEmpresa })));
const SaiuDaEmpresa = lazy(() => import('./ContaEmpresa').then((m) => ({ default: m.SaiuDaEmpresa })));
const CodigosRecuperacao = lazy(() =>
  import('./SegundaEtapa').then((m) => ({ default: m.CodigosRecuperacao })),
);

/**
 * The button of the sign-in with the company's account (issue 42), when the server has one: its words come from
 * OIDC_NOME, read from GET /api/config (with no zod: the login page loads none). Offline there is none.
 */
function useContaEmpresa(): string | null {
  const { api } = useShell();
  const [nome, setNome] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api
      .read('/api/config')
      .then((config) => {
        const value = (config as { oidc?: { nome?: unknown } | null } | null)?.oidc?.nome;
        if (live && typeof value === 'string') setNome(value);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [api]);
  return nome;
}

export function LoginPage() {
  const { api, session: sessionStore } = useShell();
  const session = useSession();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const destination = destinationFor(searchParams.get('target'));
  const contaEmpresa = useContaEmpresa();
  /** Back from the company's account's provider with the session's cookie set: the device takes the session. */
  const vindoDaEmpresa = searchParams.get('entrada') === 'empresa';
  /** Logged out of a session of the company's account: its provider's logout is offered, once. */
  const [saiuDaEmpresa] = useState(() => oferecerSairDoProvedor(window.localStorage));
  useEffect(() => () => esquecerSairDoProvedor(window.localStorage), []);
  const [errors, setErrors] = useState<LoginErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  /** The password was right and the account asks for its code (or for setting it up first). */
  const [etapa, setEtapa] = useState<{ login: string; password: string; modo: Modo } | null>(null);
  /** This login turned the second factor on: its recovery codes are shown before going on. */
  const [codigos, setCodigos] = useState<{ list: string[]; session: Session } | null>(null);

  const enter = (opened: Session) => {
    sessionStore.set(opened);
    navigate(destination, { replace: true });
  };

  if (session !== null && !submitting) return <Navigate to={destination} replace />;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const values = etapa
      ? { login: etapa.login, password: etapa.password, codigo: String(form.get('codigo') ?? '') }
      : { login: String(form.get('login') ?? ''), password: String(form.get('password') ?? '') };
    setFailure(null);
    setSubmitting(true);
    try {
      const { submitLogin } = await import('./submit');
      const result = await submitLogin(api, values, window.localStorage);
      if (result.ok) {
        if (result.codigosRecuperacao)
          setCodigos({ list: result.codigosRecuperacao, session: result.session });
        else enter(result.session);
        return;
      }
      if ('segundaEtapa' in result) {
        setErrors({});
        setEtapa({ login: values.login, password: values.password, modo: result.segundaEtapa });
        return;
      }
      setErrors('errors' in result ? result.errors : {});
      if ('failure' in result) setFailure(result.failure);
    } catch {
      // no answer, or the submit's own code did not load
      setFailure(LOGIN_FAILED);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Box
      component="main"
      sx={{ minHeight: '100dvh', display: 'grid', placeItems: 'center', p: 2, bgcolor: 'grey.100' }}
    >
      <Paper
        component="form"
        onSubmit={(event: FormEvent<HTMLFormElement>) => void onSubmit(event)}
        noValidate
        sx={{ p: 3, width: '100%', maxWidth: 380 }}
      >
        <Stack spacing={2}>
          <Typography component="h1" variant="h5">
            Novus
          </Typography>
          {failure !== null && (
            <Alert severity="error" role="alert">
              {failure}
            </Alert>
          )}
          {saiuDaEmpresa && (
            <Suspense fallback={null}>
              <SaiuDaEmpresa />
            </Suspense>
          )}
          {codigos ? (
            <Suspense fallback={<CircularProgress aria-label="Carregando" />}>
              <CodigosRecuperacao codigos={codigos.list} />
              <Button variant="contained" size="large" onClick={() => enter(codigos.session)}>
                Continuar
              </Button>
            </Suspense>
          ) : etapa ? (
            <Suspense fallback={<CircularProgress aria-label="Carregando" />}>
              <SegundaEtapa
                {...etapa}
                error={errors.codigo}
                submitting={submitting}
                onBack={() => {
                  setEtapa(null);
                  setFailure(null);
                }}
              />
            </Suspense>
          ) : vindoDaEmpresa && failure === null ? (
            <Suspense fallback={<CircularProgress aria-label="Entrando" sx={{ alignSelf: 'center' }} />}>
              <VoltaDaEmpresa params={searchParams} onSession={enter} onFailure={setFailure} />
            </Suspense>
          ) : (
            <>
              <PasswordStep errors={errors} submitting={submitting} />
              {contaEmpresa !== null && (
                <Suspense fallback={null}>
                  <ContaEmpresa nome={contaEmpresa} destination={destination} />
                </Suspense>
              )}
            </>
          )}
        </Stack>
      </Paper>
    </Box>
  );
}

/** Login and password, and 'Entrar'. */
function PasswordStep({ errors, submitting }: { errors: LoginErrors; submitting: boolean }) {
  return (
    <>
      <LoginField
        label="Login"
        name="login"
        autoComplete="username"
        autoCapitalize="none"
        error={errors.login}
      />
      <LoginField
        label="Senha"
        name="password"
        type="password"
        autoComplete="current-password"
        error={errors.password}
      />
      <Button
        type="submit"
        variant="contained"
        size="large"
        disabled={submitting}
        startIcon={submitting ? <CircularProgress size={18} color="inherit" /> : undefined}
      >
        Entrar
      </Button>
    </>
  );
}
