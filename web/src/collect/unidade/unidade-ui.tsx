// The unit's part of the shared wizard and record screen (SPEC.md sections 2–5): the type step, the poles on
// the map to choose the drop from, and the form's fields.
import { Alert, Button, Stack } from '@mui/material';
import { posteFlow } from '@novus/domain/flows/poste';
import { unidadeFlow } from '@novus/domain/flows/unidade';
import {
  TIPO_UNIDADE_LABELS,
  TIPOS_EDIFICACAO,
  TIPOS_IMOVEL,
  TIPOS_UNIDADE,
  type TipoEdificacao,
} from '@novus/domain/lists/unidade';
import { defineFlowUi, type FieldsProps, type MapLayer } from '../flow-ui';
import { SelectInput, TextInput } from '../shared/fields';
import { useFlowRecords } from '../shared/hooks';
import { RepetirUltimo, useRepeat } from '../shared/RepetirUltimo';
import {
  initialUnidadeValues,
  repeatedUnidade,
  type UnidadeFormValues,
  withTipoEdificacao,
  withTipoUnidade,
} from './unidade-values';

const emptyUnidade = () => initialUnidadeValues();

function UnidadeFields({ form, record, disabled }: FieldsProps<UnidadeFormValues>) {
  const { control, watch, getValues, reset } = form;
  const repeat = useRepeat({
    flow: unidadeFlow,
    form,
    record,
    disabled,
    initialValues: emptyUnidade,
    repeated: repeatedUnidade,
  });
  const { marked } = repeat;
  const tipoUnidade = watch('tipoUnidade');
  const tipoEdificacao = watch('tipoEdificacao');
  const imoveis = TIPOS_IMOVEL[tipoEdificacao as TipoEdificacao] ?? [];
  // keepErrors: a rule change must not hide what is still wrong; keepDirty: the form is still being edited
  const replace = (values: UnidadeFormValues) =>
    reset(values, { keepErrors: true, keepDirty: true, keepDefaultValues: true, keepSubmitCount: true });

  return (
    <Stack spacing={2}>
      <RepetirUltimo repeat={repeat} />
      <SelectInput
        control={control}
        name="tipoUnidade"
        label="Tipo de unidade"
        required
        options={TIPOS_UNIDADE.map((tipo) => ({ value: tipo, label: TIPO_UNIDADE_LABELS[tipo] }))}
        onChange={(value) => replace(withTipoUnidade(getValues(), value))}
      />
      <SelectInput
        control={control}
        name="tipoEdificacao"
        label="Tipo de edificação"
        required
        options={TIPOS_EDIFICACAO}
        repeated={marked('tipoEdificacao')}
        onChange={(value) => replace(withTipoEdificacao(getValues(), value))}
      />
      <SelectInput
        control={control}
        name="tipoImovel"
        label="Tipo de imóvel"
        required
        options={imoveis}
        repeated={marked('tipoImovel')}
      />
      <TextInput control={control} name="numero" label="Número" required numeric />
      <TextInput control={control} name="complementoNumero" label="Complemento do número" />
      {tipoUnidade === 'MDU' ? (
        <>
          <TextInput
            control={control}
            name="nomeEdificio"
            label="Nome do edifício"
            required
            repeated={marked('nomeEdificio')}
          />
          <TextInput control={control} name="nomeBloco" label="Nome do bloco" />
          <TextInput
            control={control}
            name="totalAndares"
            label="Total de andares"
            required
            numeric
            repeated={marked('totalAndares')}
          />
          <TextInput
            control={control}
            name="aptosPorAndar"
            label="Apartamentos por andar"
            required
            numeric
            repeated={marked('aptosPorAndar')}
          />
        </>
      ) : (
        <>
          <TextInput control={control} name="complemento1" label="Complemento 1" />
          <TextInput control={control} name="complemento2" label="Complemento 2" />
          <TextInput control={control} name="complemento3" label="Complemento 3" />
          <TextInput
            control={control}
            name="quantidade"
            label="Quantidade"
            required={tipoUnidade === 'SDU'}
            numeric
            repeated={marked('quantidade')}
          />
        </>
      )}
      <TextInput control={control} name="observacao" label="Observação" multiline />
    </Stack>
  );
}

function TipoUnidadeStep({ choose }: { choose: (values: UnidadeFormValues) => void }) {
  return (
    <Stack spacing={1.5} role="group" aria-label="Tipo de unidade">
      {TIPOS_UNIDADE.map((tipo) => (
        <Button
          key={tipo}
          variant="contained"
          size="large"
          onClick={() => choose(initialUnidadeValues(tipo))}
        >
          {TIPO_UNIDADE_LABELS[tipo]}
        </Button>
      ))}
    </Stack>
  );
}

/** The project's poles: a unit (but FUNDOS) names the pole that feeds it, chosen on the map (SPEC.md 5). */
function usePolesLayer({
  projetoId,
  form,
}: {
  projetoId: string;
  form: FieldsProps<UnidadeFormValues>['form'];
}): MapLayer {
  const postes = useFlowRecords(posteFlow, projetoId).records;
  const [tipoUnidade, drop] = form.watch(['tipoUnidade', 'drop']);
  const needsDrop = postes.length > 0 && tipoUnidade !== 'FUNDOS';
  return {
    points: postes.map((poste) => ({
      id: poste.id,
      lat: poste.coordenadas.lat,
      lng: poste.coordenadas.lng,
      color: '#c62828',
      kind: 'mapa-poste',
      label: 'Poste',
      selected: poste.id === drop,
    })),
    onPointClick: (id) => form.setValue('drop', id === drop ? '' : id),
    ready: !needsDrop || drop !== '',
    hint: needsDrop ? (
      <Alert severity={drop ? 'success' : 'info'}>
        {drop ? 'Poste escolhido.' : 'Toque no poste (vermelho) que alimenta esta unidade.'}
      </Alert>
    ) : undefined,
  };
}

export const unidadeUi = defineFlowUi(unidadeFlow, {
  Fields: UnidadeFields,
  initialValues: () => initialUnidadeValues(),
  title: (record) => {
    const numero = typeof record.dados.numero === 'string' ? `, nº ${record.dados.numero}` : '';
    return `Unidade ${String(record.dados.tipoUnidade ?? '')}${numero}`;
  },
  marker: () => ({ color: unidadeFlow.map.color, kind: 'mapa-unidade' }),
  formTitle: 'Dados da unidade',
  savedText: 'Unidade gravada no aparelho.',
  FirstStep: TipoUnidadeStep,
  firstStepTitle: 'Tipo de unidade',
  useMapLayer: usePolesLayer,
  editableRecord: true,
});
