import { Outlet } from 'react-router';
import { AppBar, Box, Container, ThemeProvider, Toolbar, Typography } from '@mui/material';
import { technicianTheme } from './technician-theme';

export function TechnicianLayout() {
  return (
    <ThemeProvider theme={technicianTheme}>
      <Box sx={{ minHeight: '100dvh', bgcolor: 'grey.50' }}>
        <AppBar position="static" elevation={0}>
          <Toolbar variant="dense">
            <Typography component="p" variant="h6">
              Novus
            </Typography>
          </Toolbar>
        </AppBar>
        <Container component="main" maxWidth="sm" sx={{ py: 2 }}>
          <Outlet />
        </Container>
      </Box>
    </ThemeProvider>
  );
}
