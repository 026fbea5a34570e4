import { lazy, Suspense, useEffect, useState } from 'react';
import { Outlet } from 'react-router';
import {
  AppBar,
  Box,
  Container,
  GlobalStyles,
  IconButton,
  ThemeProvider,
  Toolbar,
  Typography,
} from '@mui/material';
import MenuIcon from '@mui/icons-material/Menu';
import { canEnterBackoffice } from '@novus/domain/roles';
import { useSession } from '../shared/services';
import type { DrawerEntry } from './MenuDrawer';
import { ALTO_CONTRASTE_KEY, readAltoContraste, writeAltoContraste } from './contraste';
import { ALTO_CONTRASTE_MAPA, technicianAltoContrasteTheme, technicianTheme } from './technician-theme';

// The drawer (MUI's Modal, its transitions and focus trap) is not on the first page.
const MenuDrawer = lazy(() => import('./MenuDrawer').then((m) => ({ default: m.MenuDrawer })));

const TECHNICIAN_MENU: readonly DrawerEntry[] = [
  { label: 'Início', path: '/' },
  { label: 'Projetos', path: '/projetos' },
  { label: 'Levantamento', path: '/levantamento' },
  { label: 'Minha conta', path: '/conta' },
];

/** 'Alto contraste', as this device remembers it; turned on or off in another tab, it follows here too. */
function useAltoContraste(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(() => readAltoContraste(window.localStorage));
  useEffect(() => {
    const follow = (event: StorageEvent) => {
      if (event.key === ALTO_CONTRASTE_KEY || event.key === null)
        setOn(readAltoContraste(window.localStorage));
    };
    window.addEventListener('storage', follow);
    return () => window.removeEventListener('storage', follow);
  }, []);
  const change = (next: boolean) => {
    writeAltoContraste(window.localStorage, next);
    setOn(next);
  };
  return [on, change];
}

export function TechnicianLayout() {
  const session = useSession();
  const [altoContraste, setAltoContraste] = useAltoContraste();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [drawerUsed, setDrawerUsed] = useState(false);
  const entries =
    session && canEnterBackoffice(session.roles)
      ? [...TECHNICIAN_MENU, { label: 'Back office', path: '/backoffice' }]
      : TECHNICIAN_MENU;
  const closeDrawer = () => setDrawerOpen(false);

  return (
    <ThemeProvider theme={altoContraste ? technicianAltoContrasteTheme : technicianTheme}>
      {altoContraste && <GlobalStyles styles={ALTO_CONTRASTE_MAPA} />}
      <Box sx={{ minHeight: '100dvh', bgcolor: altoContraste ? 'background.default' : 'grey.50' }}>
        <AppBar position="static" elevation={0}>
          <Toolbar variant="dense">
            <IconButton
              edge="start"
              color="inherit"
              aria-label="Menu"
              aria-controls={drawerOpen ? 'menu-lateral' : undefined}
              aria-expanded={drawerOpen}
              onClick={() => {
                setDrawerUsed(true);
                setDrawerOpen(true);
              }}
              sx={{ mr: 1 }}
            >
              <MenuIcon />
            </IconButton>
            <Typography component="p" variant="h6">
              Novus
            </Typography>
          </Toolbar>
        </AppBar>
        {/* Mounted from the first opening on, so it can slide closed again. */}
        {drawerUsed && (
          <Suspense fallback={null}>
            <MenuDrawer
              id="menu-lateral"
              open={drawerOpen}
              entries={entries}
              onClose={closeDrawer}
              altoContraste={altoContraste}
              onAltoContrasteChange={setAltoContraste}
            />
          </Suspense>
        )}
        <Container component="main" maxWidth="sm" sx={{ py: 2 }}>
          <Outlet />
        </Container>
      </Box>
    </ThemeProvider>
  );
}
