// /projeto/:projetoId (SPEC.md section 2): one button per enabled flow; only Unidade and Poste collect for now.
import { Link as RouterLink, useParams } from 'react-router';
import { Alert, Button, LinearProgress, Stack, Typography } from '@mui/material';
import type { Fluxo } from '@novus/domain/flows/keys';
import { useProjeto } from '../collect/shared/hooks';

/** Menu order, labels and routes of SPEC.md section 2; `ready` flows have their wizard. */
export const FLOW_MENU: { fluxo: Fluxo; label: string; path: string; ready: boolean }[] = [
  { fluxo: 'hc', label: 'Unidade', path: 'addUnidades', ready: true },
  { fluxo: 'poste', label: 'Poste', path: 'addPostes', ready: true },
  { fluxo: 'ip', label: 'Uso Mútuo / IP', path: 'addUsoIP', ready: false },
  { fluxo: 'arvore', label: 'Vegetação', path: 'addArvore', ready: false },
  { fluxo: 'lpt', label: 'LPT', path: 'addLPT', ready: false },
  { fluxo: 'grupoA', label: 'Grupo A', path: 'addGrupoA', ready: false },
  { fluxo: 'bdgd', label: 'BDGD', path: 'addBDGD', ready: false },
  { fluxo: 'fiscalizacao', label: 'Fiscalização', path: 'addFiscalizacao', ready: false },
  { fluxo: 'lpt2', label: 'LPT Agiltec', path: 'addLPTv2', ready: false },
];

export function ProjetoPage() {
  const { projetoId } = useParams();
  const { projeto, loaded } = useProjeto(projetoId);

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
          {FLOW_MENU.filter(({ fluxo }) => projeto.fluxos.includes(fluxo)).map(
            ({ fluxo, label, path, ready }) =>
              ready ? (
                <Button
                  key={fluxo}
                  component={RouterLink}
                  to={`/projeto/${encodeURIComponent(projeto.id)}/${path}`}
                  variant="contained"
                  size="large"
                >
                  {label}
                </Button>
              ) : (
                <Button key={fluxo} variant="contained" size="large" disabled>
                  {label} — Em breve
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
