// Route kinds of SPEC.md sections 2 and 6: technician routes need a session; the back office also needs a
// back-office role (administrador, supervisor; the interpretador and externo on Home and Revisão only, issue 24).
import type { ReactNode } from 'react';
import { Link as RouterLink, Navigate, Outlet, useLocation } from 'react-router';
import { Alert, Box, Button, Typography } from '@mui/material';
import { canEnterBackoffice, canOpenBackofficePath } from '@novus/domain/roles';
import { NO_PERMISSION } from '@novus/domain/messages';
import { useSession } from '../shared/services';

export function RequireSession() {
  const session = useSession();
  if (session === null) return <Navigate to="/login" replace />;
  return <Outlet />;
}

export function RequireBackoffice({ children }: { children: ReactNode }) {
  const session = useSession();
  const { pathname } = useLocation();
  if (session === null) return <Navigate to="/login?target=backoffice" replace />;
  if (!canEnterBackoffice(session.roles)) {
    return (
      <Box component="main" sx={{ p: 3, display: 'grid', gap: 2, justifyItems: 'start' }}>
        <Typography component="h1" variant="h5">
          Novus
        </Typography>
        <Alert severity="error">{NO_PERMISSION}</Alert>
        <Button component={RouterLink} to="/" variant="outlined">
          Voltar
        </Button>
      </Box>
    );
  }
  // a screen outside the reader's menu goes back to the back office's home
  if (!canOpenBackofficePath(session.roles, pathname)) return <Navigate to="/backoffice" replace />;
  return children;
}
