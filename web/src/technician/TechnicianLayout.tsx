import { Outlet } from 'react-router';
import { AppBar, Box, Container, Toolbar, Typography } from '@mui/material';

export function TechnicianLayout() {
  return (
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
  );
}
