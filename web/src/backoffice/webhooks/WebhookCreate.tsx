// 'Novo webhook': a URL, the events it hears and a secret (made by the server when left blank).
import { useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormLabel,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { createWebhook, EVENTOS_WEBHOOK, type EventoWebhook, SEGREDO_MIN } from '@novus/domain/api/webhooks';
import { useBackofficeApi } from '../backoffice-api';
import { serverMessageOr } from '../server-message';
import { NoticeAlert, type Notice } from '../shared/notice';
import { EVENTO_LABEL, WEBHOOK_TEXT } from './messages';

interface Props {
  projeto: string;
  /** Called once the server stored it, so the list reloads. */
  onCreated: () => void;
}

export function WebhookCreate({ projeto, onCreated }: Props) {
  const { api, log } = useBackofficeApi();
  const [url, setUrl] = useState('');
  const [eventos, setEventos] = useState<EventoWebhook[]>([...EVENTOS_WEBHOOK]);
  const [segredo, setSegredo] = useState('');
  const [sending, setSending] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  /** The whole secret, shown once after creating. */
  const [criado, setCriado] = useState<{ url: string; segredo: string } | null>(null);

  const toggle = (evento: EventoWebhook, on: boolean) =>
    setEventos((atuais) => EVENTOS_WEBHOOK.filter((e) => (e === evento ? on : atuais.includes(e))));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSending(true);
    setNotice(null);
    setCriado(null);
    try {
      const webhook = await api.call(createWebhook, {
        params: { id: projeto },
        body: { url: url.trim(), eventos, ...(segredo.trim() ? { segredo: segredo.trim() } : {}) },
      });
      setCriado({ url: webhook.url, segredo: webhook.segredo });
      setNotice({ severity: 'success', text: WEBHOOK_TEXT.cadastrado });
      setUrl('');
      setSegredo('');
      onCreated();
    } catch (error) {
      log(WEBHOOK_TEXT.falhaCadastro.log, error);
      setNotice({
        severity: 'error',
        text: serverMessageOr(error, WEBHOOK_TEXT.falhaCadastro.text, 'create'),
      });
    } finally {
      setSending(false);
    }
  }

  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby="webhook-novo-titulo">
      <Typography id="webhook-novo-titulo" component="h2" variant="h6" sx={{ mb: 2 }}>
        Novo webhook
      </Typography>
      <Stack component="form" spacing={2} onSubmit={submit} noValidate>
        <TextField
          id="webhook-url"
          label="URL"
          type="url"
          required
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          placeholder="https://sistema.exemplo.com/novus"
          fullWidth
        />
        <FormControl component="fieldset">
          <FormLabel component="legend">Eventos</FormLabel>
          <FormGroup row>
            {EVENTOS_WEBHOOK.map((evento) => (
              <FormControlLabel
                key={evento}
                control={
                  <Checkbox checked={eventos.includes(evento)} onChange={(_e, on) => toggle(evento, on)} />
                }
                label={EVENTO_LABEL[evento]}
              />
            ))}
          </FormGroup>
        </FormControl>
        <TextField
          id="webhook-segredo"
          label="Segredo"
          value={segredo}
          onChange={(event) => setSegredo(event.target.value)}
          helperText={`Ao menos ${SEGREDO_MIN} caracteres; deixe em branco para gerar um.`}
          autoComplete="off"
          fullWidth
        />
        <div>
          <Button
            type="submit"
            variant="contained"
            disabled={sending || url.trim() === '' || eventos.length === 0}
          >
            Cadastrar
          </Button>
        </div>
        <NoticeAlert notice={notice} onClose={() => setNotice(null)} />
        {criado && (
          <Alert severity="info" role="status">
            {WEBHOOK_TEXT.guardeSegredo} Segredo de {criado.url}:{' '}
            <code data-testid="webhook-segredo-criado">{criado.segredo}</code>
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
