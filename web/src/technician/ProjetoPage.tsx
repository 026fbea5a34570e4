// /projeto/:projetoId (SPEC.md section 2): one button per flow the project enables, in the registry's order.
import { useEffect } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { Alert, Button, LinearProgress, Stack, Typography } from '@mui/material';
import { FLOWS } from '@novus/domain/flows/registry';
import { useProjeto } from '../collect/shared/hooks';
import { prefetchFlowWizard } from './wizard-code';

export function ProjetoPage() {
  const { projetoId } = useParams();
  const { projeto, loaded } = useProjeto(projetoId);
  // Each button below opens a wizard: its code comes now, while the technician reads the menu.
  useEffect(prefetchFlowWizard, []);

  return (
    <Stack spacing={2}>
      <Typography component="h1" variant="h5">
        {projeto?.nome ?? 'Projeto'}
      </Typography>
      <Alert severity="info">Sincronize a câmera antes de começar.</Alert>
      {!loaded && <LinearProgress aria-label="Carregando" />}
      {loaded && !projeto && (
        <Alert severity="error">Projeto não encontrado neste aparelho. Sincronize para baixá-lo.</Alert>
      )}
      {projeto && (
        <Stack spacing={1.5} component="nav" aria-label="Fluxos do projeto">
          {FLOWS.filter(({ key }) => projeto.fluxos.includes(key)).map(
            ({ key: fluxo, labels: { menu: label }, menuRoute }) => (
              <Button
                key={fluxo}
                component={RouterLink}
                to={`/projeto/${encodeURIComponent(projeto.id)}/${menuRoute}`}
                variant="contained"
                size="large"
              >
                {label}
              </Button>
            ),
          )}
        </Stack>
      )}
      <Button component={RouterLink} to="/projetos" variant="outlined" size="large">
        Voltar
      </Button>
    </Stack>
  );
}
