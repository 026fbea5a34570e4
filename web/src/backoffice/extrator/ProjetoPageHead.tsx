// The head of the back office's project screens (Extrator, Relatórios, Supervisão): the title, the projects'
// load failure, and one bar with 'Projeto' followed by the screen's own choices (days, filters).
import type { ReactNode } from 'react';
import { Alert, Paper, Stack, Typography } from '@mui/material';
import type { ProjetoSummary } from '@novus/domain/api/projetos';
import { ProjetoSelect } from './ProjetoSelect';
import type { Load } from './use-api-load';

interface Props {
  title: string;
  /** id of the 'Projeto' select. */
  id: string;
  projetos: Load<ProjetoSummary[]>;
  projetoId: string;
  onProjeto: (projetoId: string) => void;
  children?: ReactNode;
}

export function ProjetoPageHead({ title, id, projetos, projetoId, onProjeto, children }: Props) {
  return (
    <>
      <Typography component="h1" variant="h5">
        {title}
      </Typography>
      {projetos.status === 'failed' && (
        <Alert severity="error" role="alert">
          {projetos.message}
        </Alert>
      )}
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
          <ProjetoSelect id={id} projetos={projetos} value={projetoId} onChange={onProjeto} />
          {children}
        </Stack>
      </Paper>
    </>
  );
}
