import { useState } from 'react';
import { Link as RouterLink, Outlet } from 'react-router';
import {
  AppBar,
  Box,
  Container,
  Drawer,
  IconButton,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  ThemeProvider,
  Toolbar,
  Typography,
} from '@mui/material';
import MenuIcon from '@mui/icons-material/Menu';
import { SIDE_DRAWER_WIDTH } from '@novus/domain/constants';
import { canEnterBackoffice } from '@novus/domain/roles';
import { useSession } from '../app/services';
import { technicianTheme } from './technician-theme';

interface DrawerEntry {
  label: string;
  path: string;
}

const TECHNICIAN_MENU: readonly DrawerEntry[] = [
  { label: 'Início', path: '/' },
  { label: 'Projetos', path: '/projetos' },
  { label: 'Levantamento', path: '/levantamento' },
];

export function TechnicianLayout() {
  const session = useSession();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const entries =
    session && canEnterBackoffice(session.roles)
      ? [...TECHNICIAN_MENU, { label: 'Back office', path: '/backoffice' }]
      : TECHNICIAN_MENU;
  const closeDrawer = () => setDrawerOpen(false);

  return (
    <ThemeProvider theme={technicianTheme}>
      <Box sx={{ minHeight: '100dvh', bgcolor: 'grey.50' }}>
        <AppBar position="static" elevation={0}>
          <Toolbar variant="dense">
            <IconButton
              edge="start"
              color="inherit"
              aria-label="Menu"
              aria-controls={drawerOpen ? 'menu-lateral' : undefined}
              aria-expanded={drawerOpen}
              onClick={() => setDrawerOpen(true)}
              sx={{ mr: 1 }}
            >
              <MenuIcon />
            </IconButton>
            <Typography component="p" variant="h6">
              Novus
            </Typography>
          </Toolbar>
        </AppBar>
        <Drawer
          id="menu-lateral"
          variant="temporary"
          open={drawerOpen}
          onClose={closeDrawer}
          sx={{ '& .MuiDrawer-paper': { width: SIDE_DRAWER_WIDTH } }}
        >
          <Box component="nav" aria-label="Menu lateral">
            <List>
              {entries.map((entry) => (
                <ListItem key={entry.path} disablePadding>
                  <ListItemButton component={RouterLink} to={entry.path} onClick={closeDrawer}>
                    <ListItemText primary={entry.label} />
                  </ListItemButton>
                </ListItem>
              ))}
            </List>
          </Box>
        </Drawer>
        <Container component="main" maxWidth="sm" sx={{ py: 2 }}>
          <Outlet />
        </Container>
      </Box>
    </ThemeProvider>
  );
}
