// /{flow}/:id for every flow (SPEC.md section 2): the record's fields and photos, Gravar to correct it while it
// is still on the device (the pole's is disabled), Excluir when the flow allows it, then /levantamento. A record
// the reviewer rejected (issue 24) opens here to be fixed, whatever its flow, and goes back to /correcoes.
import { useEffect, useState } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { Alert, Button, LinearProgress, Stack, Typography } from '@mui/material';
import { type FieldValues, useForm } from 'react-hook-form';
import type { FlowDefinition } from '@novus/domain/flows/flow';
import { useReportFailure, useServices, useSession } from '../../shared/services';
import { DEVICE_FAILURE } from '../../offline/device-log';
import { type FotoServidor, isDeletable } from '../../offline/records';
import { saveErrorText } from '../../offline/storage';
import { type FlowUi, valuesOf } from '../flow-ui';
import { ActionBar } from './ActionBar';
import { CORRECAO_TEXTS, CorrecaoAlert, useCorrecaoHighlight } from './correcao';
import { domainResolver } from './domain-resolver';
import { PhotoSlots } from './PhotoSlots';
import { RecordHeader } from './RecordHeader';
import { SavedNotice } from './SavedNotice';
import { saveRecord, slotsOf } from './save-record';
import { useRecord } from './use-record';

export const ALREADY_SYNCED = 'Este registro já está no servidor: as correções são feitas pelo back office.';

export function FlowRecordPage({ flow, ui }: { flow: FlowDefinition; ui: FlowUi }) {
  const { id } = useParams();
  const navigate = useNavigate();
  const { records } = useServices();
  const session = useSession();
  const reportFailure = useReportFailure();
  const { record, loaded } = useRecord(flow, id);
  const [fotos, setFotos] = useState<(Blob | null)[]>(() => slotsOf(flow, null));
  /** A correction's server photos still kept (issue 24). */
  const [servidor, setServidor] = useState<FotoServidor[]>([]);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const form = useForm<FieldValues>({
    defaultValues: ui.initialValues(),
    resolver: domainResolver(flow.dados),
  });
  const { reset } = form;

  useEffect(() => {
    if (!record) return;
    reset(valuesOf(ui.initialValues(), record.dados));
    setFotos(slotsOf(flow, record));
    setServidor(record.fotosServidor ?? []);
  }, [record, reset, flow, ui]);
  // After the reset above, which clears the form's errors; a correction already saved is not pointed at again.
  useCorrecaoHighlight(form, record?.sincronizadoEm ? record.correcao : undefined);

  if (!loaded) return <LinearProgress aria-label="Carregando" />;
  if (!record)
    return (
      <Stack spacing={2}>
        <Alert severity="error">{flow.labels.record}: registro não encontrado neste aparelho.</Alert>
        <Button component={RouterLink} to="/levantamento" variant="outlined">
          Voltar
        </Button>
      </Stack>
    );

  // A synchronised record is never changed on the device only: it would never be sent again. A correction is
  // sent again, as a new revision, whatever the flow.
  const synced = Boolean(record.sincronizadoEm);
  const { correcao } = record;
  const editable = (ui.editableRecord && !synced) || correcao !== undefined;

  const save = form.handleSubmit(
    async (values) => {
      if (ui.confirmSave && !window.confirm(ui.confirmSave)) return;
      try {
        await saveRecord({
          records,
          flow,
          projeto: { id: record.projeto },
          editing: record,
          point: { ...record.coordenadas },
          fotos,
          fotosServidor: servidor,
          tecnico: session?.nome,
          values,
        });
        setError(null);
        if (correcao) {
          navigate('/correcoes');
          return;
        }
        setSaved(true);
      } catch (cause) {
        setError(saveErrorText(cause));
        reportFailure(DEVICE_FAILURE.save(flow.labels.record), cause);
      }
    },
    (errors) => ui.onInvalid?.(errors as Record<string, { message?: string } | undefined>),
  );

  const remove = async () => {
    if (!window.confirm(flow.deleteConfirm)) return;
    try {
      await records.deleteRecord(flow, record.id);
      navigate('/levantamento');
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : String(cause));
      reportFailure(DEVICE_FAILURE.remove(flow.labels.record), cause);
    }
  };

  const { Fields } = ui;
  const formId = `${flow.key}-registro`;
  return (
    <Stack spacing={2}>
      <RecordHeader title={ui.title(record)} collected="Coletado em" record={record} />
      {correcao && <CorrecaoAlert correcao={correcao} campos={Object.keys(ui.initialValues())} />}
      {correcao && !synced && <Alert severity="success">{CORRECAO_TEXTS.corrigida}</Alert>}
      {synced && !correcao && <Alert severity="info">{ALREADY_SYNCED}</Alert>}
      <Stack component="form" spacing={2} noValidate onSubmit={(event) => void save(event)} id={formId}>
        <Fields form={form} record={record} disabled={!editable} />
        <Typography component="h2" variant="h6">
          Fotos
        </Typography>
        <PhotoSlots
          fotos={fotos}
          slots={flow.photoSlots}
          list={flow.photoList}
          onChange={setFotos}
          disabled={!editable}
          servidor={servidor}
          onRemoveServidor={(slot) => setServidor((kept) => kept.filter((foto) => foto.slot !== slot))}
        />
        {error && <Alert severity="error">{error}</Alert>}
      </Stack>
      <Button component={RouterLink} to={`/${flow.recordPath}/${record.id}/fotos`} variant="outlined">
        Ver fotos
      </Button>
      <ActionBar>
        <Button variant="contained" type="submit" form={formId} disabled={!editable}>
          Gravar
        </Button>
        <Button
          variant="outlined"
          color="error"
          // a rejected record is on the server: deleting the device's copy would not withdraw it
          disabled={correcao !== undefined || !isDeletable(flow, record)}
          onClick={() => void remove()}
        >
          Excluir
        </Button>
        <Button component={RouterLink} to={correcao ? '/correcoes' : '/levantamento'} variant="outlined">
          Voltar
        </Button>
      </ActionBar>
      <SavedNotice
        open={saved}
        text={`${flow.labels.record}: alterações gravadas.`}
        onClose={() => setSaved(false)}
      />
    </Stack>
  );
}
