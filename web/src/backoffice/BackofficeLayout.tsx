// Fixed top bar with title, greeting and user menu; permanent 240 px drawer (SPEC.md section 2).
import { useState, type ReactNode } from 'react';
import { NavLink, useNavigate } from 'react-router';
import {
  AppBar,
  Box,
  Drawer,
  IconButton,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  Menu,
  MenuItem,
  Toolbar,
  Typography,
} from '@mui/material';
import AccountCircle from '@mui/icons-material/AccountCircle';
import { BACKOFFICE_DRAWER_WIDTH } from '@novus/domain/constants';
import { menuFor } from '@novus/domain/roles';
import { useSession } from '../shared/services';
import { useLogout } from '../shared/use-logout';

export function BackofficeLayout({ children }: { children: ReactNode }) {
  const session = useSession();
  const logout = useLogout('/backoffice');
  const navigate = useNavigate();
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const entries = menuFor(session?.roles ?? []);

  return (
    <Box sx={{ display: 'flex', minHeight: '100dvh' }}>
      <AppBar position="fixed" sx={{ zIndex: (theme) => theme.zIndex.drawer + 1 }}>
        <Toolbar>
          <Typography component="p" variant="h6" sx={{ flexGrow: 1 }}>
            Novus
          </Typography>
          <Typography component="p" variant="body1" sx={{ mr: 1 }}>
            Olá, {session?.nome ?? ''}
          </Typography>
          <IconButton
            color="inherit"
            aria-label="Menu do usuário"
            aria-controls={menuAnchor ? 'menu-usuario' : undefined}
            aria-haspopup="true"
            aria-expanded={menuAnchor ? 'true' : undefined}
            onClick={(event) => setMenuAnchor(event.currentTarget)}
          >
            <AccountCircle />
          </IconButton>
          <Menu
            id="menu-usuario"
            anchorEl={menuAnchor}
            open={menuAnchor !== null}
            onClose={() => setMenuAnchor(null)}
            anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
            transformOrigin={{ vertical: 'top', horizontal: 'right' }}
          >
            <MenuItem
              onClick={() => {
                setMenuAnchor(null);
                void navigate('/backoffice/conta');
              }}
            >
              Minha conta
            </MenuItem>
            <MenuItem
              onClick={() => {
                setMenuAnchor(null);
                logout();
              }}
            >
              Logout
            </MenuItem>
          </Menu>
        </Toolbar>
      </AppBar>
      <Drawer
        variant="permanent"
        sx={{
          width: BACKOFFICE_DRAWER_WIDTH,
          flexShrink: 0,
          '& .MuiDrawer-paper': { width: BACKOFFICE_DRAWER_WIDTH, boxSizing: 'border-box' },
        }}
      >
        <Toolbar />
        <Box component="nav" aria-label="Menu principal" sx={{ overflow: 'auto' }}>
          <List>
            {entries.map((entry) => (
              <ListItem key={entry.path} disablePadding>
                <ListItemButton
                  component={NavLink}
                  // '/backoffice/' must not stay lit under /backoffice/cliente, nor miss /backoffice
                  to={entry.path.replace(/\/$/, '')}
                  end={entry.path === '/backoffice/'}
                  sx={{ '&.active': { bgcolor: 'action.selected' } }}
                >
                  <ListItemText primary={entry.label} />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        </Box>
      </Drawer>
      <Box component="main" sx={{ flexGrow: 1, p: 3, minWidth: 0 }}>
        <Toolbar />
        {children}
      </Box>
    </Box>
  );
}
