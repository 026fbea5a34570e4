// The project menu of SPEC.md section 2 comes with the collection flows; for now only 'Voltar'.
import { Link as RouterLink } from 'react-router';
import { Button, Stack, Typography } from '@mui/material';

export function ProjetoPage() {
  return (
    <Stack spacing={2}>
      <Typography component="h1" variant="h5">
        Projeto
      </Typography>
      <Typography color="text.secondary">
        Em construção: os fluxos de coleta chegam em uma próxima versão.
      </Typography>
      <Button component={RouterLink} to="/projetos" variant="outlined" size="large">
        Voltar
      </Button>
    </Stack>
  );
}
