import { Alert, Stack, Typography } from '@mui/material';

/** Back-office pages that arrive in a later version. */
export function PlaceholderPage({ title }: { title: string }) {
  return (
    <Stack spacing={2}>
      <Typography component="h1" variant="h5">
        {title}
      </Typography>
      <Alert severity="info">Em construção: esta página chega em uma próxima versão.</Alert>
    </Stack>
  );
}
