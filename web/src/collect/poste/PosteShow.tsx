// /poste/:id (SPEC.md sections 2 and 5): the pole's fields and photos; Gravar is disabled, Excluir works.
import { useEffect } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { Alert, Button, LinearProgress, Stack, Typography } from '@mui/material';
import { useForm } from 'react-hook-form';
import { posteFlow } from '@novus/domain/flows/poste';
import { useServices } from '../../app/services';
import { ActionBar } from '../shared/ActionBar';
import { PhotoSlots } from '../shared/PhotoSlots';
import { RecordHeader } from '../shared/RecordHeader';
import { useRecord } from '../shared/use-record';
import { initialPosteValues, type PosteFormValues, posteValuesOf } from './poste-values';
import { PosteFields } from './PosteFields';

export const DELETE_POSTE = 'Confirma exclusão do poste?';

export function PosteShow() {
  const { id } = useParams();
  const navigate = useNavigate();
  const { records } = useServices();
  const { record, loaded } = useRecord(posteFlow, id);
  const form = useForm<PosteFormValues>({ defaultValues: initialPosteValues() });
  const { reset } = form;
  useEffect(() => {
    if (record) reset(posteValuesOf(record.dados));
  }, [record, reset]);

  if (!loaded) return <LinearProgress aria-label="Carregando" />;
  if (!record)
    return (
      <Stack spacing={2}>
        <Alert severity="error">Poste não encontrado neste aparelho.</Alert>
        <Button component={RouterLink} to="/levantamento" variant="outlined">
          Voltar
        </Button>
      </Stack>
    );

  const remove = async () => {
    if (!window.confirm(DELETE_POSTE)) return;
    await records.deleteRecord(posteFlow, record.id);
    navigate('/levantamento');
  };

  return (
    <Stack spacing={2}>
      <RecordHeader title="Poste" collected="Coletado em" record={record} />
      <PosteFields control={form.control} disabled />
      <Typography component="h2" variant="h6">
        Fotos
      </Typography>
      <PhotoSlots fotos={record.fotos} slots={posteFlow.photoSlots} disabled />
      <Button component={RouterLink} to={`/poste/${record.id}/fotos`} variant="outlined">
        Ver fotos
      </Button>
      <ActionBar>
        <Button variant="contained" disabled>
          Gravar
        </Button>
        <Button variant="outlined" color="error" onClick={() => void remove()}>
          Excluir
        </Button>
        <Button component={RouterLink} to="/levantamento" variant="outlined">
          Voltar
        </Button>
      </ActionBar>
    </Stack>
  );
}
