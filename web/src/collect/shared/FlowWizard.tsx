// /projeto/:projetoId/{menuRoute} for every flow (SPEC.md sections 2, 4, 5): [a flow's first step →] map →
// form. The map shows the flow's records (or the flow's own layer); tapping one opens it, tapping the map
// chooses a point. A flow may replace the map with a list (LPT Agiltec): its form then takes the GPS position.
// Gravar saves on the device and starts again; a flow brings only its fields and rules.
import {
  type FormEvent,
  type Ref,
  useEffect,
  useImperativeHandle,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { flushSync } from 'react-dom';
import { useNavigate, useParams } from 'react-router';
import { Alert, Button, Stack, Typography } from '@mui/material';
import { type Control, type FieldValues, useForm, useFormState, type UseFormReturn } from 'react-hook-form';
import type { FlowDefinition } from '@novus/domain/flows/flow';
import { isInZonas } from '@novus/domain/geo/zonas';
import { useReportFailure, useServices, useSession } from '../../shared/services';
import { useGeolocation } from '../../map/field/geolocation';
import { DEVICE_FAILURE } from '../../offline/device-log';
import { isDeletable, type LocalColeta } from '../../offline/records';
import { saveErrorText } from '../../offline/storage';
import type { FlowUi, MapLayer } from '../flow-ui';
import { valuesOf } from '../flow-ui';
import { ActionBar } from './ActionBar';
import { domainResolver } from './domain-resolver';
import { useFlowRecords, useMapPoints, useProjeto, useWorkInProgress } from './hooks';
import { type ChosenPoint, MapStep, PICK_POINT } from './MapStep';
import { PhotoSlots } from './PhotoSlots';
import { ProjetoNotFound } from './ProjetoNotFound';
import { hasProximoPonto } from './proximo-ponto';
import { canSaveAtRefreshedLocation, REFRESH_LOCATION } from './refreshed-location';
import { RefreshLocation } from './RefreshLocation';
import { SavedNotice } from './SavedNotice';
import { saveRecord, slotsOf } from './save-record';

export const OUTSIDE_ZONES =
  'O ponto escolhido está fora das suas zonas. O registro será gravado mesmo assim, na zona que o contém.';

interface Props {
  flow: FlowDefinition;
  ui: FlowUi;
}

/**
 * The flow's own records on the map, drawn from their compact row (the records are not read for it, issue 41); tapping
 * one reads and opens it. A flow chosen from a list, or whose map shows another layer (useMapLayer), reads no row.
 */
function useOwnRecordsLayer(
  flow: FlowDefinition,
  ui: FlowUi,
  projetoId: string,
  open: (record: LocalColeta) => void,
): MapLayer & { reload: () => void } {
  const { records } = useServices();
  const reportFailure = useReportFailure();
  const { points, reload } = useMapPoints(flow, ui, projetoId, !ui.ChooseStep && !ui.useMapLayer);
  return {
    points,
    onPointClick: (id) => {
      records.getByID(flow, id).then(
        (record) => record && open(record),
        (error: unknown) => reportFailure(DEVICE_FAILURE.read(flow.labels.record), error),
      );
    },
    ready: true,
    reload,
  };
}

/** Whether a save runs: its own small store, so starting one draws Gravar alone, not the wizard (issue 41). */
class Gravando {
  private ativo = false;
  private readonly listeners = new Set<() => void>();

  get = (): boolean => this.ativo;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Runs `save` unless one runs already (a second tap on Gravar saves nothing). */
  async run(save: () => Promise<void>): Promise<void> {
    if (this.ativo) return;
    this.set(true);
    try {
      await save();
    } finally {
      this.set(false);
    }
  }

  private set(ativo: boolean): void {
    this.ativo = ativo;
    for (const listener of this.listeners) listener();
  }
}

/**
 * Gravar, disabled while a save runs. It follows the form's state and the save itself, so the wizard (the whole form)
 * is not drawn again when a save starts (issue 41).
 */
function GravarButton({
  control,
  gravando,
  form,
  disabled,
}: {
  control: Control;
  gravando: Gravando;
  form: string;
  disabled: boolean;
}) {
  const { isSubmitting } = useFormState({ control });
  const saving = useSyncExternalStore(gravando.subscribe, gravando.get);
  return (
    <Button variant="contained" type="submit" form={form} disabled={isSubmitting || saving || disabled}>
      Gravar
    </Button>
  );
}

/** The form's error of its own (a flow's rule across fields), followed apart from the wizard as Gravar is. */
function RootError({ control }: { control: Control }) {
  const { errors } = useFormState({ control });
  const message = errors.root?.message;
  return message ? <Alert severity="error">{message}</Alert> : null;
}

interface SavedHandle {
  show: () => void;
}

/** The confirmation of a save, with its own state: on the screen before the wizard is drawn for the next record. */
function SavedAfterGravar({ text, ref }: { text: string; ref: Ref<SavedHandle> }) {
  const [open, setOpen] = useState(false);
  useImperativeHandle(ref, () => ({ show: () => flushSync(() => setOpen(true)) }), []);
  return <SavedNotice open={open} text={text} onClose={() => setOpen(false)} />;
}

/** Resolves once the browser has painted what is on the page now (or soon, in a hidden tab, which paints nothing). */
const afterPaint = () =>
  new Promise<void>((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 100);
  });

export function FlowWizard({ flow, ui }: Props) {
  const { projetoId = '' } = useParams();
  const navigate = useNavigate();
  const { records } = useServices();
  const session = useSession();
  const reportFailure = useReportFailure();
  const { projeto, loaded } = useProjeto(projetoId);
  const geo = useGeolocation();
  useWorkInProgress('wizard');

  const firstStep = ui.FirstStep ? 1 : 0;
  const mapStep = firstStep;
  const formStep = firstStep + 1;
  const [step, setStep] = useState(0);
  const [base, setBase] = useState<FieldValues>(ui.initialValues);
  const [point, setPoint] = useState<ChosenPoint | null>(null);
  /** 'Atualizar localização' was pressed for this collection (flows chosen from a list). */
  const [refreshed, setRefreshed] = useState(false);
  const [editing, setEditing] = useState<LocalColeta | null>(null);
  const [fotos, setFotos] = useState<(Blob | null)[]>(() => slotsOf(flow, null));
  const [alert, setAlert] = useState<string | null>(null);
  const saved = useRef<SavedHandle>(null);
  const [gravando] = useState(() => new Gravando());
  const form = useForm<FieldValues>({
    defaultValues: ui.initialValues(),
    resolver: domainResolver(flow.dados),
  });

  const { ChooseStep } = ui;
  const open = (record: LocalColeta) => {
    // A record already collected and on the server is only shown on its screen (corrections go through the
    // back office); a preloaded point not yet collected opens for collection. A list's record (LPT Agiltec)
    // may be collected again: the server keeps every collection.
    // A record the reviewer rejected (issue 24) opens on its screen too, with the reviewer's comment.
    if (
      record.sincronizadoEm &&
      (flow.lifecycle === 'coleta' ||
        (flow.lifecycle === 'ponto' && record.coletado) ||
        record.correcao !== undefined)
    ) {
      navigate(`/${flow.recordPath}/${encodeURIComponent(record.id)}`);
      return;
    }
    setEditing(record);
    // A record chosen from a list takes its position from 'Atualizar localização', every time.
    setPoint(
      ChooseStep
        ? null
        : {
            ...record.coordenadas,
            ...(record.precisao !== undefined ? { precisao: record.precisao } : {}),
          },
    );
    setRefreshed(false);
    form.reset(valuesOf(ui.initialValues(), record.dados));
    setFotos(slotsOf(flow, record));
    setAlert(null);
    setStep(formStep);
  };
  // The records themselves only where a list shows them, or once 'Próximo ponto' or a search needs them.
  const [recordsWanted, setRecordsWanted] = useState(false);
  const full = useFlowRecords(flow, projetoId, Boolean(ChooseStep) || recordsWanted);
  const own = useOwnRecordsLayer(flow, ui, projetoId, open);
  const reload = () => {
    full.reload();
    own.reload();
  };
  // Each photo's stored copy and hash are made as it is taken, not at Gravar (RecordStore.prepareFotos).
  useEffect(() => records.prepareFotos(fotos), [records, fotos]);
  useEffect(() => records.mapa.abrir(), [records]);
  const flowLayer = ui.useMapLayer?.({ projetoId, form: form as UseFormReturn<FieldValues> });
  const layer = flowLayer ?? own;

  if (!projeto) return <ProjetoNotFound loaded={loaded} />;

  const startOver = (values: FieldValues, nextStep: number) => {
    form.reset(values);
    setBase(values);
    setEditing(null);
    setPoint(null);
    setRefreshed(false);
    setFotos(slotsOf(flow, null));
    setAlert(null);
    setStep(nextStep);
  };
  const clearForm = () => {
    form.reset(editing ? valuesOf(ui.initialValues(), editing.dados) : base);
    setFotos(slotsOf(flow, editing));
    setAlert(null);
  };
  const toMap = () => startOver(base, mapStep);
  const back = () => {
    if (step === 0) {
      startOver(ui.initialValues(), 0);
      navigate(`/projeto/${encodeURIComponent(projeto.id)}`);
    } else if (step === formStep) toMap();
    else setStep(step - 1);
  };

  const recordPoint = async () => {
    if (point === null) {
      setAlert(PICK_POINT);
      return;
    }
    setAlert(null);
    if (flow.lifecycle !== 'coleta') {
      // A point drawn on the map exists from now on: not collected, added in the app (SPEC.md section 4).
      const drawn = await records.addPoint(flow, projeto.id, point);
      reload();
      setEditing(drawn);
    }
    setStep(formStep);
  };

  const saveValid = async (values: FieldValues) => {
    if (point === null || (ChooseStep && !canSaveAtRefreshedLocation({ point, refreshed }))) {
      setAlert(ChooseStep ? REFRESH_LOCATION : PICK_POINT);
      return;
    }
    if (ui.confirmSave && !window.confirm(ui.confirmSave)) return;
    try {
      await saveRecord({
        records,
        flow,
        projeto,
        editing,
        point,
        fotos,
        tecnico: session?.nome,
        values,
      });
      // Stored: the technician is told first, and the form is drawn for the next record once that is on the screen
      // (Gravar stays disabled until then).
      saved.current?.show();
      await afterPaint();
      reload();
      if (firstStep) startOver(ui.initialValues(), 0);
      else toMap();
    } catch (error) {
      setAlert(saveErrorText(error));
      reportFailure(DEVICE_FAILURE.save(flow.labels.record), error);
    }
  };
  const saveChecked = form.handleSubmit(
    (values) => gravando.run(() => saveValid(values)),
    (errors) => ui.onInvalid?.(errors as Record<string, { message?: string } | undefined>),
  );
  /**
   * Gravar. Values the flow's schema accepts (the form's resolver, domainResolver, is that schema) are saved at once:
   * react-hook-form's submit would first change its state twice and draw every field again, 5–10 ms before the write
   * starts (issue 41). Values it refuses go through that submit, which shows the errors and focuses the first field.
   * The fields' own errors follow their values already; the form's error of a rule across fields (`root`) stays until
   * a submit, so an earlier one goes here.
   */
  const save = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = form.getValues();
    if (!flow.dados.safeParse(values).success) return saveChecked(event);
    if (form.getFieldState('root').error) form.clearErrors('root');
    return gravando.run(() => saveValid(values));
  };

  const remove = async () => {
    if (!editing || !window.confirm(flow.deleteConfirm)) return;
    try {
      await records.deleteRecord(flow, editing.id);
      reload();
      toMap();
    } catch (error) {
      setAlert(error instanceof Error ? error.message : String(error));
      reportFailure(DEVICE_FAILURE.remove(flow.labels.record), error);
    }
  };

  const moveHere = () => {
    if (!geo.position || !ui.movedField) return;
    setPoint({ lat: geo.position.lat, lng: geo.position.lng, precisao: geo.position.accuracy });
    form.setValue(ui.movedField, true);
  };

  const outside =
    point !== null && projeto.zonas.some((zona) => zona.poligono?.length)
      ? !isInZonas(point, projeto.zonas)
      : false;
  const canClear = flow.lifecycle === 'coleta';
  const canSave = ChooseStep ? canSaveAtRefreshedLocation({ point, refreshed }) : true;
  const stepTitle =
    step === 0 && ui.FirstStep
      ? (ui.firstStepTitle ?? flow.labels.record)
      : step === mapStep
        ? ChooseStep
          ? (ui.chooseStepTitle ?? 'Escolha o registro')
          : 'Coordenadas'
        : editing && editing.coletado !== false && flow.lifecycle === 'coleta'
          ? `Alterar ${flow.labels.record.toLowerCase()}`
          : ui.formTitle;
  const { Fields, FirstStep } = ui;

  return (
    <Stack spacing={2}>
      <Typography component="h1" variant="h5">
        {flow.labels.record} — {projeto.nome}
      </Typography>
      <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600 }}>
        Passo {step + 1} de {formStep + 1}: {stepTitle}
      </Typography>

      {step === 0 && FirstStep && <FirstStep choose={(values) => startOver(values, mapStep)} />}

      {/* Kept mounted while the form is open, so the list comes back with its filters after Gravar. */}
      {ChooseStep && (
        <div hidden={step !== mapStep}>
          <ChooseStep projetoId={projeto.id} records={full.records} open={open} />
        </div>
      )}

      {step === mapStep && !ChooseStep && (
        <MapStep
          projeto={projeto}
          geo={geo}
          points={layer.points}
          picked={point}
          onPick={setPoint}
          onPointClick={layer.onPointClick}
          proximo={
            hasProximoPonto(flow) && !flowLayer
              ? {
                  flow,
                  records: full.loaded ? full.records : null,
                  load: () => setRecordsWanted(true),
                  title: ui.title,
                  open,
                }
              : undefined
          }
        >
          {point === null && <Alert severity="info">{PICK_POINT}</Alert>}
          {outside && <Alert severity="warning">{OUTSIDE_ZONES}</Alert>}
          {alert && <Alert severity="warning">{alert}</Alert>}
          {layer.hint ?? (
            <Typography variant="body2">
              Toque num ponto do mapa para abri-lo, ou num lugar vazio para um novo.
            </Typography>
          )}
        </MapStep>
      )}

      {step === formStep && (
        <Stack
          component="form"
          spacing={2}
          noValidate
          onSubmit={(event) => void save(event)}
          id={`${flow.key}-form`}
        >
          <RootError control={form.control} />
          <Fields form={form} record={editing} />
          {ChooseStep && (
            <RefreshLocation
              geo={geo}
              point={refreshed ? point : null}
              onRefresh={(taken) => {
                setPoint(taken);
                setRefreshed(true);
                setAlert(null);
              }}
            />
          )}
          {ui.movedField && editing?.carregadoBackoffice && (
            <Button variant="outlined" disabled={!geo.position} onClick={moveHere}>
              Atualizar coordenadas para minha localização
            </Button>
          )}
          <Typography component="h2" variant="h6">
            Fotos
          </Typography>
          <PhotoSlots fotos={fotos} slots={flow.photoSlots} list={flow.photoList} onChange={setFotos} />
          {alert && <Alert severity="error">{alert}</Alert>}
        </Stack>
      )}

      <ActionBar>
        {step === mapStep && !ChooseStep && (
          <Button
            key="coordenadas"
            variant="contained"
            disabled={point === null || !layer.ready}
            onClick={() => void recordPoint()}
          >
            Gravar Coordenadas
          </Button>
        )}
        {step === formStep && (
          <GravarButton
            key="gravar"
            control={form.control}
            gravando={gravando}
            form={`${flow.key}-form`}
            disabled={!canSave}
          />
        )}
        {(canClear || (step === 0 && !ChooseStep)) && (
          <Button variant="outlined" onClick={step === formStep ? clearForm : () => startOver(base, step)}>
            Limpar
          </Button>
        )}
        <Button variant="outlined" onClick={back}>
          Voltar
        </Button>
        {step === formStep && (
          <Button
            variant="outlined"
            color="error"
            disabled={!editing || !isDeletable(flow, editing)}
            onClick={() => void remove()}
          >
            Excluir
          </Button>
        )}
      </ActionBar>
      <SavedAfterGravar ref={saved} text={ui.savedText} />
    </Stack>
  );
}
