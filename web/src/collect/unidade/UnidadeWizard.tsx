// /projeto/:projetoId/addUnidades (SPEC.md sections 2, 4, 5): type → map → form; Gravar saves on the device
// and starts again at step 1.
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Alert, Button, Stack, Typography } from '@mui/material';
import { useForm } from 'react-hook-form';
import { unidadeFlow } from '@novus/domain/flows/unidade';
import { posteFlow } from '@novus/domain/flows/poste';
import { TIPO_UNIDADE_LABELS, TIPOS_UNIDADE, type TipoUnidade } from '@novus/domain/lists/unidade';
import { useServices, useSession } from '../../app/services';
import { useGeolocation } from '../../map/field/geolocation';
import type { MapPoint } from '../../map/field/FieldMap';
import { ActionBar } from '../shared/ActionBar';
import { SavedNotice } from '../shared/SavedNotice';
import { domainResolver } from '../shared/domain-resolver';
import { useFlowRecords, useProjeto, useWorkInProgress } from '../shared/hooks';
import { type ChosenPoint, MapStep, PICK_POINT } from '../shared/MapStep';
import { PhotoSlots } from '../shared/PhotoSlots';
import { ProjetoNotFound } from '../shared/ProjetoNotFound';
import { initialUnidadeValues, type UnidadeFormValues } from './unidade-values';
import { UnidadeFields } from './UnidadeFields';

const STEPS = ['Tipo de unidade', 'Coordenadas', 'Dados da unidade'] as const;

export function UnidadeWizard() {
  const { projetoId } = useParams();
  const navigate = useNavigate();
  const { records } = useServices();
  const session = useSession();
  const { projeto, loaded } = useProjeto(projetoId);
  const postes = useFlowRecords(posteFlow, projetoId).records;
  const geo = useGeolocation();
  useWorkInProgress('wizard');

  const [step, setStep] = useState(0);
  const [point, setPoint] = useState<ChosenPoint | null>(null);
  const [fotos, setFotos] = useState<(Blob | null)[]>([null, null, null]);
  const [saved, setSaved] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const form = useForm<UnidadeFormValues>({
    defaultValues: initialUnidadeValues(),
    resolver: domainResolver(unidadeFlow.dados),
  });
  const tipoUnidade = form.watch('tipoUnidade');
  const drop = form.watch('drop');

  if (!projeto) return <ProjetoNotFound loaded={loaded} />;

  const showPoles = postes.length > 0;
  const needsDrop = showPoles && tipoUnidade !== 'FUNDOS';
  const canRecordPoint = point !== null && (!needsDrop || drop !== '');

  const resetAll = () => {
    form.reset(initialUnidadeValues());
    setPoint(null);
    setFotos([null, null, null]);
    setSaveError(null);
    setStep(0);
  };

  const back = () => {
    if (step === 0) {
      resetAll();
      navigate(`/projeto/${encodeURIComponent(projeto.id)}`);
    } else setStep(step - 1);
  };

  const chooseTipo = (tipo: TipoUnidade) => {
    form.reset({ ...initialUnidadeValues(tipo), drop: form.getValues('drop') });
    setStep(1);
  };

  const save = form.handleSubmit(async (values) => {
    if (point === null) {
      setSaveError(PICK_POINT);
      return;
    }
    try {
      const dados = unidadeFlow.dados.parse(values);
      await records.add(unidadeFlow, {
        projeto: projeto.id,
        dataHora: Date.now(),
        coordenadas: { lat: point.lat, lng: point.lng },
        ...(point.precisao !== undefined ? { precisao: point.precisao } : {}),
        fotos,
        ...(session?.nome ? { tecnico: session.nome } : {}),
        dados,
      });
      resetAll();
      setSaved(true);
    } catch (error) {
      setSaveError(error instanceof Error ? error.message : String(error));
    }
  });

  const polePoints: MapPoint[] = postes.map((poste) => ({
    id: poste.id,
    lat: poste.coordenadas.lat,
    lng: poste.coordenadas.lng,
    color: '#c62828',
    kind: 'mapa-poste',
    label: 'Poste',
    selected: poste.id === drop,
  }));

  return (
    <Stack spacing={2}>
      <Typography component="h1" variant="h5">
        Unidade — {projeto.nome}
      </Typography>
      <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600 }}>
        Passo {step + 1} de 3: {STEPS[step]}
      </Typography>

      {step === 0 && (
        <Stack spacing={1.5} role="group" aria-label="Tipo de unidade">
          {TIPOS_UNIDADE.map((tipo) => (
            <Button key={tipo} variant="contained" size="large" onClick={() => chooseTipo(tipo)}>
              {TIPO_UNIDADE_LABELS[tipo]}
            </Button>
          ))}
        </Stack>
      )}

      {step === 1 && (
        <MapStep
          projeto={projeto}
          geo={geo}
          points={polePoints}
          picked={point}
          onPick={setPoint}
          onPointClick={(id) => form.setValue('drop', id === drop ? '' : id)}
        >
          {point === null && <Alert severity="warning">{PICK_POINT}</Alert>}
          {needsDrop && (
            <Alert severity={drop ? 'success' : 'info'}>
              {drop ? 'Poste escolhido.' : 'Toque no poste (vermelho) que alimenta esta unidade.'}
            </Alert>
          )}
        </MapStep>
      )}

      {step === 2 && (
        <Stack
          component="form"
          spacing={2}
          noValidate
          onSubmit={(event) => void save(event)}
          id="unidade-form"
        >
          <UnidadeFields form={form} />
          <Typography component="h2" variant="h6">
            Fotos
          </Typography>
          <PhotoSlots fotos={fotos} slots={unidadeFlow.photoSlots} onChange={setFotos} />
          {saveError && <Alert severity="error">{saveError}</Alert>}
        </Stack>
      )}

      <ActionBar>
        {step === 1 && (
          <Button key="coordenadas" variant="contained" disabled={!canRecordPoint} onClick={() => setStep(2)}>
            Gravar Coordenadas
          </Button>
        )}
        {step === 2 && (
          <Button
            key="gravar"
            variant="contained"
            type="submit"
            form="unidade-form"
            disabled={form.formState.isSubmitting}
          >
            Gravar
          </Button>
        )}
        <Button variant="outlined" onClick={resetAll}>
          Limpar
        </Button>
        <Button variant="outlined" onClick={back}>
          Voltar
        </Button>
      </ActionBar>
      <SavedNotice open={saved} text="Unidade gravada no aparelho." onClose={() => setSaved(false)} />
    </Stack>
  );
}
