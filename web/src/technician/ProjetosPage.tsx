// 'Escolha um projeto': projects kept on the device (downloaded by sync).
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import {
  Alert,
  Button,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import type { LocalProjeto } from '../offline/db';
import { useReportFailure, useServices } from '../shared/services';
import { DEVICE_FAILURE } from '../offline/device-log';

export function ProjetosPage() {
  const { localStore } = useServices();
  const reportFailure = useReportFailure();
  const [projetos, setProjetos] = useState<LocalProjeto[] | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let active = true;
    localStore.listProjetos().then(
      (list) => active && setProjetos(list),
      (error: unknown) => {
        reportFailure(DEVICE_FAILURE.read('Projetos'), error);
        if (active) setFailed(true);
      },
    );
    return () => {
      active = false;
    };
  }, [localStore, reportFailure]);

  return (
    <Stack spacing={2}>
      <Typography component="h1" variant="h5">
        Escolha um projeto
      </Typography>
      {failed && <Alert severity="error">Não foi possível ler os projetos deste aparelho.</Alert>}
      {projetos !== null && projetos.length === 0 && (
        <Typography color="text.secondary">
          Nenhum projeto neste aparelho. Sincronize para baixar seus projetos.
        </Typography>
      )}
      {projetos !== null && projetos.length > 0 && (
        <Paper variant="outlined">
          <List aria-label="Projetos">
            {/* Each link in its own item: a list holds items, not links (axe's 'list' rule). */}
            {projetos.map((projeto) => (
              <ListItem key={projeto.id} disablePadding>
                <ListItemButton component={RouterLink} to={`/projeto/${encodeURIComponent(projeto.id)}`}>
                  <ListItemText primary={projeto.nome} />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        </Paper>
      )}
      <Button component={RouterLink} to="/" variant="outlined" size="large">
        Sair
      </Button>
    </Stack>
  );
}
