// 'Adicionar Cliente' (/backoffice/cliente/add) and 'Alterar Cliente' (/backoffice/cliente/:clienteId).
import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Box, Button, CircularProgress, Stack, TextField, Typography } from '@mui/material';
import { clienteInputSchema } from '@novus/domain/cliente';
import { createCliente, getCliente, updateCliente } from '@novus/domain/api/clientes';
import { useBackofficeApi } from '../backoffice-api';
import { serverMessageOr } from '../server-message';
import { NoticeAlert, type Notice } from '../shared/notice';
import { SubmitButton } from '../shared/SubmitButton';
import { useRecordLoad } from '../shared/use-record-load';
import { CLIENTE_TEXT } from './messages';

export function ClienteForm() {
  const { clienteId } = useParams();
  const editing = clienteId !== undefined;
  const { api, log } = useBackofficeApi();
  const [notice, setNotice] = useState<Notice | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(clienteInputSchema), defaultValues: { nome: '' } });

  const loading = useRecordLoad(clienteId, {
    fetch: (id) => api.call(getCliente, { params: { id } }),
    loaded: (cliente) => reset({ nome: cliente.nome }),
    failure: { log: 'Falha ao carregar cliente', text: CLIENTE_TEXT.loadOneFailed },
    onNotice: setNotice,
  });

  const onSubmit = handleSubmit(async (input) => {
    setNotice(null);
    try {
      if (clienteId === undefined) {
        await api.call(createCliente, { body: input });
        reset({ nome: '' });
        setNotice({ severity: 'success', text: CLIENTE_TEXT.created });
      } else {
        const saved = await api.call(updateCliente, {
          params: { id: clienteId },
          body: { id: clienteId, nome: input.nome },
        });
        reset({ nome: saved.nome });
        setNotice({ severity: 'success', text: CLIENTE_TEXT.updated });
      }
    } catch (error) {
      log(editing ? 'Falha ao gravar alterações de cliente' : 'Falha ao adicionar cliente', error);
      setNotice({
        severity: 'error',
        text: editing
          ? serverMessageOr(error, CLIENTE_TEXT.updateFailed, 'edit')
          : serverMessageOr(error, CLIENTE_TEXT.createFailed, 'create'),
      });
    }
  });

  return (
    <Stack spacing={2} sx={{ maxWidth: 560 }}>
      <Typography component="h1" variant="h5">
        {editing ? 'Alterar Cliente' : 'Adicionar Cliente'}
      </Typography>
      <NoticeAlert notice={notice} />
      {loading ? (
        <CircularProgress aria-label="Carregando cliente" />
      ) : (
        <Box component="form" onSubmit={onSubmit} noValidate>
          <Stack spacing={2}>
            <TextField
              label="Nome"
              error={errors.nome !== undefined}
              helperText={errors.nome?.message}
              slotProps={{ inputLabel: { shrink: true } }}
              {...register('nome')}
            />
            <Stack direction="row" spacing={1}>
              <SubmitButton sending={isSubmitting} />
              <Button component={RouterLink} to="/backoffice/cliente" variant="text">
                Voltar
              </Button>
            </Stack>
          </Stack>
        </Box>
      )}
    </Stack>
  );
}
