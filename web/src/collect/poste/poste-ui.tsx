// The pole's fields (SPEC.md sections 3, 5), on the wizard and /poste/:id (read-only there).
import { Stack } from '@mui/material';
import type { FormValuesOf } from '@novus/domain/flows/flow';
import { posteFlow } from '@novus/domain/flows/poste';
import {
  ALTURAS_POSTE,
  CARGAS_POSTE,
  EQUIPAMENTOS_REDE,
  TIPOS_POSTE,
  TIPOS_REDE_ELETRICA,
  EQUIPAMENTO_PADRAO,
  TIPO_POSTE_PADRAO,
} from '@novus/domain/lists/poste';
import { defineFlowUi, type FieldsProps } from '../flow-ui';
import { CheckboxInput, SelectInput, TextInput } from '../shared/fields';
import { copiedFields } from '../shared/repetir';
import { RepetirUltimo, useRepeat } from '../shared/RepetirUltimo';

type PosteValues = FormValuesOf<typeof posteFlow.dados>;

const initialPosteValues = (): PosteValues => ({
  tipo: TIPO_POSTE_PADRAO,
  altura: '',
  carga: '',
  tipoRedeEletrica: '',
  aterramento: false,
  equipamentoRedeEnergia: EQUIPAMENTO_PADRAO,
  observacao: '',
});

/**
 * What 'Repetir último' copies from the technician's previous pole (issue 26): what the pole is. Not the
 * observação: a note about that one pole, copied unseen onto the next, is wrong data that passes every rule.
 */
export const POSTE_REPETIDOS = [
  'tipo',
  'altura',
  'carga',
  'tipoRedeEletrica',
  'aterramento',
  'equipamentoRedeEnergia',
] as const satisfies readonly (keyof PosteValues)[];

export const repeatedPoste = (previous: PosteValues): Partial<PosteValues> =>
  copiedFields(previous, POSTE_REPETIDOS);

function PosteFields({ form, record, disabled }: FieldsProps<PosteValues>) {
  const { control, watch } = form;
  const [altura, carga] = watch(['altura', 'carga']);
  const observacaoRequired = altura === 'OUTROS' || carga === 'OUTROS';
  const repeat = useRepeat({
    flow: posteFlow,
    form,
    record,
    disabled,
    initialValues: initialPosteValues,
    repeated: repeatedPoste,
  });
  const { marked } = repeat;
  return (
    <Stack spacing={2}>
      <RepetirUltimo repeat={repeat} />
      <SelectInput
        control={control}
        name="tipo"
        repeated={marked('tipo')}
        label="Tipo"
        required
        disabled={disabled}
        options={TIPOS_POSTE}
      />
      <SelectInput
        control={control}
        name="altura"
        repeated={marked('altura')}
        label="Altura"
        required
        disabled={disabled}
        options={ALTURAS_POSTE}
      />
      <SelectInput
        control={control}
        name="carga"
        repeated={marked('carga')}
        label="Carga"
        required
        disabled={disabled}
        options={CARGAS_POSTE}
      />
      <SelectInput
        control={control}
        name="tipoRedeEletrica"
        repeated={marked('tipoRedeEletrica')}
        label="Tipo de rede elétrica"
        required
        disabled={disabled}
        options={TIPOS_REDE_ELETRICA}
      />
      <CheckboxInput
        control={control}
        name="aterramento"
        label="Aterramento"
        disabled={disabled}
        repeated={marked('aterramento')}
      />
      <SelectInput
        control={control}
        name="equipamentoRedeEnergia"
        repeated={marked('equipamentoRedeEnergia')}
        label="Equipamento de rede de energia"
        required
        disabled={disabled}
        options={EQUIPAMENTOS_REDE}
      />
      <TextInput
        control={control}
        name="observacao"
        label="Observação"
        required={observacaoRequired}
        disabled={disabled}
        multiline
      />
    </Stack>
  );
}

export const posteUi = defineFlowUi(posteFlow, {
  Fields: PosteFields,
  initialValues: initialPosteValues,
  title: (record) => `Poste ${String(record.dados.tipo ?? '')}`,
  marker: (record) => ({ color: record.sincronizadoEm ? '#6a1b9a' : '#c62828', kind: 'mapa-poste' }),
  formTitle: 'Dados do poste',
  savedText: 'Poste gravado no aparelho.',
  editableRecord: false,
});
