import { useState, type FormEvent } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { Alert, Box, Button, CircularProgress, Paper, Stack, Typography } from '@mui/material';
import { useSession, useShell } from '../shared/services';
import type { LoginErrors } from './submit';
import { LoginField } from './LoginField';
import { destinationFor } from './target';

const LOGIN_FAILED = 'Não foi possível entrar. Verifique a conexão e tente novamente.';

export function LoginPage() {
  const { api, session: sessionStore } = useShell();
  const session = useSession();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const destination = destinationFor(searchParams.get('target'));
  const [errors, setErrors] = useState<LoginErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  if (session !== null && !submitting) return <Navigate to={destination} replace />;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const values = { login: String(form.get('login') ?? ''), password: String(form.get('password') ?? '') };
    setFailure(null);
    setSubmitting(true);
    try {
      const { submitLogin } = await import('./submit');
      const result = await submitLogin(api, values, window.localStorage);
      if (result.ok) {
        sessionStore.set(result.session);
        navigate(destination, { replace: true });
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
        </Stack>
      </Paper>
    </Box>
  );
}
