// /projeto/:projetoId/addPostes (SPEC.md sections 2 and 4): map → form. Tapping a pole still on the device
// opens it; Gravar saves, clears the form and returns to the map.
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Alert, Button, Stack, Typography } from '@mui/material';
import { useForm } from 'react-hook-form';
import { posteFlow } from '@novus/domain/flows/poste';
import { useServices, useSession } from '../../app/services';
import { useGeolocation } from '../../map/field/geolocation';
import type { MapPoint } from '../../map/field/FieldMap';
import type { LocalColeta } from '../../offline/records';
import { ActionBar } from '../shared/ActionBar';
import { SavedNotice } from '../shared/SavedNotice';
import { domainResolver } from '../shared/domain-resolver';
import { useFlowRecords, useProjeto, useWorkInProgress } from '../shared/hooks';
import { type ChosenPoint, MapStep, PICK_POINT } from '../shared/MapStep';
import { PhotoSlots } from '../shared/PhotoSlots';
import { ProjetoNotFound } from '../shared/ProjetoNotFound';
import { initialPosteValues, type PosteFormValues, posteValuesOf } from './poste-values';
import { PosteFields } from './PosteFields';

const emptyFotos = () => Array.from({ length: posteFlow.photoSlots }, () => null);

export function PosteWizard() {
  const { projetoId } = useParams();
  const navigate = useNavigate();
  const { records } = useServices();
  const session = useSession();
  const { projeto, loaded } = useProjeto(projetoId);
  const postes = useFlowRecords(posteFlow, projetoId);
  const geo = useGeolocation();
  useWorkInProgress('wizard');

  const [step, setStep] = useState(0);
  const [point, setPoint] = useState<ChosenPoint | null>(null);
  const [editing, setEditing] = useState<LocalColeta | null>(null);
  const [fotos, setFotos] = useState<(Blob | null)[]>(emptyFotos);
  const [alert, setAlert] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const form = useForm<PosteFormValues>({
    defaultValues: initialPosteValues(),
    resolver: domainResolver(posteFlow.dados),
  });
  const [altura, carga] = form.watch(['altura', 'carga']);

  if (!projeto) return <ProjetoNotFound loaded={loaded} />;

  const clearForm = () => {
    form.reset(initialPosteValues());
    setFotos(emptyFotos());
    setAlert(null);
  };

  const toMap = () => {
    clearForm();
    setEditing(null);
    setPoint(null);
    setStep(0);
  };

  const back = () => {
    if (step === 0) navigate(`/projeto/${encodeURIComponent(projeto.id)}`);
    else toMap();
  };

  const next = () => {
    if (point === null) {
      setAlert(PICK_POINT);
      return;
    }
    setAlert(null);
    setStep(1);
  };

  const open = (id: string) => {
    const poste = postes.records.find((record) => record.id === id);
    if (!poste) return;
    // A pole already on the server is only shown; one still on the device can be corrected here.
    if (poste.sincronizadoEm) {
      navigate(`/poste/${encodeURIComponent(id)}`);
      return;
    }
    setEditing(poste);
    setPoint({ ...poste.coordenadas, ...(poste.precisao !== undefined ? { precisao: poste.precisao } : {}) });
    form.reset(posteValuesOf(poste.dados));
    setFotos(Array.from({ length: posteFlow.photoSlots }, (_, slot) => poste.fotos[slot] ?? null));
    setStep(1);
  };

  const save = form.handleSubmit(async (values) => {
    if (point === null) {
      setAlert(PICK_POINT);
      return;
    }
    try {
      const dados = posteFlow.dados.parse(values);
      const coordenadas = { lat: point.lat, lng: point.lng };
      const precisao = point.precisao !== undefined ? { precisao: point.precisao } : {};
      if (editing) {
        const changedFotos = fotos.some((foto, slot) => foto !== (editing.fotos[slot] ?? null));
        await records.update(posteFlow, {
          ...editing,
          coordenadas,
          ...precisao,
          fotos,
          imagensCompactadas: editing.imagensCompactadas && !changedFotos,
          dados,
        });
      } else {
        await records.add(posteFlow, {
          projeto: projeto.id,
          dataHora: Date.now(),
          coordenadas,
          ...precisao,
          fotos,
          ...(session?.nome ? { tecnico: session.nome } : {}),
          dados,
        });
      }
      postes.reload();
      toMap();
      setSaved(true);
    } catch (error) {
      setAlert(error instanceof Error ? error.message : String(error));
    }
  });

  const points: MapPoint[] = postes.records.map((poste) => ({
    id: poste.id,
    lat: poste.coordenadas.lat,
    lng: poste.coordenadas.lng,
    color: poste.sincronizadoEm ? '#6a1b9a' : '#c62828',
    kind: 'mapa-poste',
    label: 'Poste',
  }));

  return (
    <Stack spacing={2}>
      <Typography component="h1" variant="h5">
        Poste — {projeto.nome}
      </Typography>
      <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600 }}>
        Passo {step + 1} de 2: {step === 0 ? 'Coordenadas' : editing ? 'Alterar poste' : 'Dados do poste'}
      </Typography>

      {step === 0 && (
        <MapStep
          projeto={projeto}
          geo={geo}
          points={points}
          picked={point}
          onPick={setPoint}
          onPointClick={open}
        >
          {alert && <Alert severity="warning">{alert}</Alert>}
          <Typography variant="body2" color="text.secondary">
            Toque num poste vermelho para corrigi-lo, ou num lugar vazio para um poste novo.
          </Typography>
        </MapStep>
      )}

      {step === 1 && (
        <Stack component="form" spacing={2} noValidate onSubmit={(event) => void save(event)} id="poste-form">
          {form.formState.errors.root?.message && (
            <Alert severity="error">{form.formState.errors.root.message}</Alert>
          )}
          <PosteFields
            control={form.control}
            observacaoRequired={altura === 'OUTROS' || carga === 'OUTROS'}
          />
          <Typography component="h2" variant="h6">
            Fotos
          </Typography>
          <PhotoSlots fotos={fotos} slots={posteFlow.photoSlots} onChange={setFotos} />
          {alert && <Alert severity="error">{alert}</Alert>}
        </Stack>
      )}

      <ActionBar>
        {step === 0 ? (
          <Button key="coordenadas" variant="contained" onClick={next}>
            Gravar Coordenadas
          </Button>
        ) : (
          <Button
            key="gravar"
            variant="contained"
            type="submit"
            form="poste-form"
            disabled={form.formState.isSubmitting}
          >
            Gravar
          </Button>
        )}
        <Button variant="outlined" onClick={step === 0 ? toMap : clearForm}>
          Limpar
        </Button>
        <Button variant="outlined" onClick={back}>
          Voltar
        </Button>
      </ActionBar>
      <SavedNotice open={saved} text="Poste gravado no aparelho." onClose={() => setSaved(false)} />
    </Stack>
  );
}
