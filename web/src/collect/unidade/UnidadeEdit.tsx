// /unidade/:id (SPEC.md section 2): the pending unit's form, Gravar to correct it, Excluir to drop it.
import { useEffect, useState } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { Alert, Button, LinearProgress, Stack, Typography } from '@mui/material';
import { useForm } from 'react-hook-form';
import { unidadeFlow } from '@novus/domain/flows/unidade';
import { useServices } from '../../app/services';
import { ActionBar } from '../shared/ActionBar';
import { SavedNotice } from '../shared/SavedNotice';
import { domainResolver } from '../shared/domain-resolver';
import { PhotoSlots } from '../shared/PhotoSlots';
import { RecordHeader } from '../shared/RecordHeader';
import { useRecord } from '../shared/use-record';
import { initialUnidadeValues, type UnidadeFormValues, unidadeValuesOf } from './unidade-values';
import { UnidadeFields } from './UnidadeFields';

export const DELETE_UNIDADE = 'Confirma exclusão da unidade?';

export function UnidadeEdit() {
  const { id } = useParams();
  const navigate = useNavigate();
  const { records } = useServices();
  const { record, loaded } = useRecord(unidadeFlow, id);
  const [fotos, setFotos] = useState<(Blob | null)[]>([null, null, null]);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const form = useForm<UnidadeFormValues>({
    defaultValues: initialUnidadeValues(),
    resolver: domainResolver(unidadeFlow.dados),
  });
  const { reset } = form;

  useEffect(() => {
    if (!record) return;
    reset(unidadeValuesOf(record.dados));
    setFotos(Array.from({ length: unidadeFlow.photoSlots }, (_, slot) => record.fotos[slot] ?? null));
  }, [record, reset]);

  if (!loaded) return <LinearProgress aria-label="Carregando" />;
  if (!record)
    return (
      <Stack spacing={2}>
        <Alert severity="error">Unidade não encontrada neste aparelho.</Alert>
        <Button component={RouterLink} to="/levantamento" variant="outlined">
          Voltar
        </Button>
      </Stack>
    );

  const save = form.handleSubmit(async (values) => {
    try {
      const changedFotos = fotos.some((foto, slot) => foto !== (record.fotos[slot] ?? null));
      await records.update(unidadeFlow, {
        ...record,
        fotos,
        imagensCompactadas: record.imagensCompactadas && !changedFotos,
        dados: unidadeFlow.dados.parse(values),
      });
      setSaved(true);
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : String(cause));
    }
  });

  const remove = async () => {
    if (!window.confirm(DELETE_UNIDADE)) return;
    await records.deleteRecord(unidadeFlow, record.id);
    navigate('/levantamento');
  };

  return (
    <Stack spacing={2}>
      <RecordHeader title="Unidade" collected="Coletada em" record={record} />
      <Stack component="form" spacing={2} noValidate onSubmit={(event) => void save(event)} id="unidade-edit">
        <UnidadeFields form={form} />
        <Typography component="h2" variant="h6">
          Fotos
        </Typography>
        <PhotoSlots fotos={fotos} slots={unidadeFlow.photoSlots} onChange={setFotos} />
        {error && <Alert severity="error">{error}</Alert>}
      </Stack>
      <Button component={RouterLink} to={`/unidade/${record.id}/fotos`} variant="outlined">
        Ver fotos
      </Button>
      <ActionBar>
        <Button variant="contained" type="submit" form="unidade-edit">
          Gravar
        </Button>
        <Button variant="outlined" color="error" onClick={() => void remove()}>
          Excluir
        </Button>
        <Button component={RouterLink} to="/levantamento" variant="outlined">
          Voltar
        </Button>
      </ActionBar>
      <SavedNotice open={saved} text="Unidade alterada." onClose={() => setSaved(false)} />
    </Stack>
  );
}
