// 'Importar pendentes' (administrador): the zip a technician's phone wrote with 'Exportar pendentes' goes in
// through the sync's upload path; importing it twice, or after the phone synced, stores nothing twice.
import { type FormEvent, useState } from 'react';
import {
  Alert,
  Button,
  CircularProgress,
  List,
  ListItem,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { FLOW_BY_KEY } from '@novus/domain/flows/registry';
import { FLUXOS, type Fluxo } from '@novus/domain/flows/keys';
import { ApiError } from '../../api/client';
import { importarPendentes, type ImportSummary } from '@novus/domain/api/pendentes';
import { useBackofficeApi } from '../backoffice-api';

export const PENDENTES_TEXT = {
  title: 'Importar pendentes',
  intro:
    'Envie o arquivo .zip gerado por "Exportar pendentes" no aparelho do técnico. Registros que o servidor já tem não são gravados de novo.',
  noFile: 'Escolha o arquivo .zip de pendentes.',
  failed: 'Não foi possível importar o arquivo.',
} as const;

const flowLabel = (fluxo: string) =>
  (FLUXOS as readonly string[]).includes(fluxo) ? FLOW_BY_KEY[fluxo as Fluxo].labels.record : fluxo;

function summaryLines(summary: ImportSummary): string[] {
  return [
    `Técnico: ${summary.tecnico}`,
    `Registros no arquivo: ${summary.registros}`,
    `Gravados agora: ${summary.criados + summary.coletados}`,
    `Já existiam no servidor: ${summary.jaExistentes}`,
    ...(summary.concorrentes > 0 ? [`Coletas concorrentes guardadas: ${summary.concorrentes}`] : []),
    `Fotos gravadas: ${summary.fotos}`,
    `Recusados: ${summary.recusados.length}`,
  ];
}

export function PendentesImportPage() {
  const { api, log } = useBackofficeApi();
  const [arquivo, setArquivo] = useState<File | null>(null);
  const [tecnico, setTecnico] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [summary, setSummary] = useState<ImportSummary | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setSummary(null);
    if (arquivo === null) {
      setError(PENDENTES_TEXT.noFile);
      return;
    }
    setSending(true);
    try {
      const form = new FormData();
      // `tecnico`: the collector's login, when the file does not say (or says wrong)
      if (tecnico.trim() !== '') form.append('tecnico', tecnico.trim());
      form.append('arquivo', arquivo);
      setSummary(await api.call(importarPendentes, { body: form }));
    } catch (cause) {
      if (!(cause instanceof ApiError && cause.status >= 400 && cause.status < 500)) {
        log('Falha ao importar pendentes', cause instanceof Error ? cause.message : String(cause));
      }
      setError(
        cause instanceof ApiError && cause.serverMessage ? cause.serverMessage : PENDENTES_TEXT.failed,
      );
    } finally {
      setSending(false);
    }
  };

  return (
    <Stack spacing={2} sx={{ maxWidth: 720 }}>
      <Typography component="h1" variant="h5">
        {PENDENTES_TEXT.title}
      </Typography>
      <Paper variant="outlined" sx={{ p: 2 }} component="form" onSubmit={(e) => void onSubmit(e)} noValidate>
        <Stack spacing={2}>
          <Typography variant="body2">{PENDENTES_TEXT.intro}</Typography>
          <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Button variant="outlined" component="label">
              Escolher arquivo
              <input
                hidden
                type="file"
                accept=".zip,application/zip"
                aria-label="Arquivo de pendentes (.zip)"
                onChange={(event) => setArquivo(event.target.files?.[0] ?? null)}
              />
            </Button>
            <Typography variant="body2" data-testid="pendentes-arquivo">
              {arquivo ? arquivo.name : 'Nenhum arquivo escolhido'}
            </Typography>
          </Stack>
          <TextField
            id="pendentes-tecnico"
            label="Login do técnico (se o arquivo não disser)"
            value={tecnico}
            onChange={(event) => setTecnico(event.target.value)}
          />
          <Button
            type="submit"
            variant="contained"
            disabled={sending}
            startIcon={
              sending ? <CircularProgress size={18} color="inherit" aria-label="Importando" /> : undefined
            }
            sx={{ alignSelf: 'flex-start' }}
          >
            Importar
          </Button>
        </Stack>
      </Paper>
      {error !== null && (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      )}
      {summary !== null && (
        <Alert severity={summary.recusados.length > 0 ? 'warning' : 'success'} role="status">
          <Stack spacing={0.5} data-testid="pendentes-resumo">
            {summaryLines(summary).map((line) => (
              <Typography key={line} variant="body2">
                {line}
              </Typography>
            ))}
            {summary.recusados.length > 0 && (
              <List dense disablePadding aria-label="Registros recusados">
                {summary.recusados.map((recusado, index) => (
                  <ListItem key={`${recusado.id ?? ''}-${index}`} disableGutters>
                    {flowLabel(recusado.fluxo)} {recusado.id ?? ''}: {recusado.motivo}
                  </ListItem>
                ))}
              </List>
            )}
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}
