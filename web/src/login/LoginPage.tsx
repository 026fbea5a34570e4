import { useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Box, Button, CircularProgress, Paper, Stack, TextField, Typography } from '@mui/material';
import { loginSchema } from '@novus/domain/auth';
import { login } from '../api/auth';
import { ApiError } from '../api/client';
import { rememberLogin } from '../offline/pendentes-export';
import { requestPersistentStorage } from '../offline/storage';
import { useServices, useSession } from '../app/services';
import { destinationFor } from './target';

const LOGIN_FAILED = 'Não foi possível entrar. Verifique a conexão e tente novamente.';

export function LoginPage() {
  const { api, session: sessionStore } = useServices();
  const session = useSession();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const destination = destinationFor(searchParams.get('target'));
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(loginSchema), defaultValues: { login: '', password: '' } });

  if (session !== null && !isSubmitting) return <Navigate to={destination} replace />;

  const onSubmit = handleSubmit(async (input) => {
    setFailure(null);
    try {
      const claims = await login(api, input);
      sessionStore.set(claims);
      rememberLogin(window.localStorage, input.login);
      void requestPersistentStorage().catch(() => false);
      navigate(destination, { replace: true });
    } catch (error) {
      setFailure(error instanceof ApiError && error.serverMessage ? error.serverMessage : LOGIN_FAILED);
    }
  });

  return (
    <Box
      component="main"
      sx={{ minHeight: '100dvh', display: 'grid', placeItems: 'center', p: 2, bgcolor: 'grey.100' }}
    >
      <Paper component="form" onSubmit={onSubmit} noValidate sx={{ p: 3, width: '100%', maxWidth: 380 }}>
        <Stack spacing={2}>
          <Typography component="h1" variant="h5">
            Novus
          </Typography>
          {failure !== null && (
            <Alert severity="error" role="alert">
              {failure}
            </Alert>
          )}
          <TextField
            label="Login"
            required
            autoComplete="username"
            autoCapitalize="none"
            error={errors.login !== undefined}
            helperText={errors.login?.message}
            {...register('login')}
          />
          <TextField
            label="Senha"
            type="password"
            required
            autoComplete="current-password"
            error={errors.password !== undefined}
            helperText={errors.password?.message}
            {...register('password')}
          />
          <Button
            type="submit"
            variant="contained"
            size="large"
            disabled={isSubmitting}
            startIcon={isSubmitting ? <CircularProgress size={18} color="inherit" /> : undefined}
          >
            Entrar
          </Button>
        </Stack>
      </Paper>
    </Box>
  );
}
