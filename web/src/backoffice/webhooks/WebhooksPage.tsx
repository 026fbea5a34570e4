// 'Webhooks' (administrador, issue 27): a project's webhooks — registered, listed, removed — and the delivery log
// of one, where 'Reenviar' queues a delivery again.
import { useState } from 'react';
import { Alert, Button, Paper, Stack, Typography } from '@mui/material';
import { listProjetos } from '@novus/domain/api/projetos';
import {
  deleteWebhook,
  type Entrega,
  listEntregas,
  listWebhooks,
  reenviarEntrega,
  type Webhook,
} from '@novus/domain/api/webhooks';
import { useBackofficeApi } from '../backoffice-api';
import { LoadContent } from '../extrator/LoadContent';
import { ProjetoSelect } from '../extrator/ProjetoSelect';
import { useApiLoad } from '../extrator/use-api-load';
import { serverMessageOr } from '../server-message';
import { DeleteDialog } from '../shared/DeleteDialog';
import { NoticeAlert, type Notice } from '../shared/notice';
import { EntregaTable } from './EntregaTable';
import { WEBHOOK_TEXT } from './messages';
import { WebhookCreate } from './WebhookCreate';
import { WebhookTable } from './WebhookTable';

export function WebhooksPage() {
  const { api, log } = useBackofficeApi();
  const projetos = useApiLoad('projetos', (client) => client.call(listProjetos, {}), WEBHOOK_TEXT.projetos);
  const [projeto, setProjeto] = useState('');
  /** Bumped after every write, so the lists load again. */
  const [versao, setVersao] = useState(0);
  const [aberto, setAberto] = useState<Webhook | null>(null);
  const [excluindo, setExcluindo] = useState<Webhook | null>(null);
  const [reenviando, setReenviando] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const reload = () => setVersao((n) => n + 1);

  const webhooks = useApiLoad(
    projeto === '' ? null : `${projeto}:${versao}`,
    (client) => client.call(listWebhooks, { params: { id: projeto } }),
    WEBHOOK_TEXT.lista,
  );
  const entregas = useApiLoad(
    aberto === null ? null : `${aberto._id}:${versao}`,
    (client) => client.call(listEntregas, { params: { id: aberto?._id ?? '' } }),
    WEBHOOK_TEXT.entregas,
  );

  function escolher(id: string) {
    setProjeto(id);
    setAberto(null);
    setNotice(null);
  }

  async function excluir(webhook: Webhook) {
    setExcluindo(null);
    try {
      await api.call(deleteWebhook, { params: { id: webhook._id } });
      if (aberto?._id === webhook._id) setAberto(null);
      setNotice({ severity: 'success', text: WEBHOOK_TEXT.excluido });
      reload();
    } catch (error) {
      log(WEBHOOK_TEXT.falhaExclusao.log, error);
      setNotice({ severity: 'error', text: serverMessageOr(error, WEBHOOK_TEXT.falhaExclusao.text) });
    }
  }

  async function reenviar(entrega: Entrega) {
    if (aberto === null) return;
    setReenviando(entrega._id);
    try {
      await api.call(reenviarEntrega, { params: { id: aberto._id, entrega: entrega._id } });
      setNotice({ severity: 'success', text: WEBHOOK_TEXT.reenviada });
      reload();
    } catch (error) {
      log(WEBHOOK_TEXT.falhaReenvio.log, error);
      setNotice({ severity: 'error', text: serverMessageOr(error, WEBHOOK_TEXT.falhaReenvio.text) });
    } finally {
      setReenviando(null);
    }
  }

  return (
    <Stack spacing={2}>
      <Typography component="h1" variant="h5">
        Webhooks
      </Typography>
      <ProjetoSelect id="webhooks-projeto" projetos={projetos} value={projeto} onChange={escolher} />
      {projetos.status === 'failed' && <Alert severity="error">{projetos.message}</Alert>}
      {projeto === '' ? (
        <Alert severity="info">{WEBHOOK_TEXT.escolhaProjeto}</Alert>
      ) : (
        <>
          <WebhookCreate key={projeto} projeto={projeto} onCreated={reload} />
          <NoticeAlert notice={notice} onClose={() => setNotice(null)} />
          <Paper variant="outlined" component="section" aria-labelledby="webhooks-lista-titulo" sx={{ p: 2 }}>
            <Typography id="webhooks-lista-titulo" component="h2" variant="h6" sx={{ mb: 1 }}>
              Webhooks do projeto
            </Typography>
            <LoadContent load={webhooks} loadingLabel="Carregando webhooks">
              {(lista) =>
                lista.length === 0 ? (
                  <Alert severity="info">{WEBHOOK_TEXT.vazio}</Alert>
                ) : (
                  <WebhookTable webhooks={lista} onEntregas={setAberto} onExcluir={setExcluindo} />
                )
              }
            </LoadContent>
          </Paper>
          {aberto && (
            <Paper variant="outlined" component="section" aria-labelledby="entregas-titulo" sx={{ p: 2 }}>
              <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1 }}>
                <Typography id="entregas-titulo" component="h2" variant="h6" sx={{ flexGrow: 1 }}>
                  Entregas de {aberto.url}
                </Typography>
                <Button variant="outlined" onClick={reload}>
                  Atualizar
                </Button>
              </Stack>
              <LoadContent load={entregas} loadingLabel="Carregando entregas">
                {(lista) =>
                  lista.length === 0 ? (
                    <Alert severity="info">{WEBHOOK_TEXT.semEntregas}</Alert>
                  ) : (
                    <EntregaTable entregas={lista} reenviando={reenviando} onReenviar={reenviar} />
                  )
                }
              </LoadContent>
            </Paper>
          )}
        </>
      )}
      <DeleteDialog
        open={excluindo !== null}
        text={WEBHOOK_TEXT.confirmarExclusao}
        onConfirm={() => excluindo && void excluir(excluindo)}
        onCancel={() => setExcluindo(null)}
      />
    </Stack>
  );
}
