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

type PosteValues = FormValuesOf<typeof posteFlow.dados>;

function PosteFields({ form, disabled }: FieldsProps<PosteValues>) {
  const { control, watch } = form;
  const [altura, carga] = watch(['altura', 'carga']);
  const observacaoRequired = altura === 'OUTROS' || carga === 'OUTROS';
  return (
    <Stack spacing={2}>
      <SelectInput
        control={control}
        name="tipo"
        label="Tipo"
        required
        disabled={disabled}
        options={TIPOS_POSTE}
      />
      <SelectInput
        control={control}
        name="altura"
        label="Altura"
        required
        disabled={disabled}
        options={ALTURAS_POSTE}
      />
      <SelectInput
        control={control}
        name="carga"
        label="Carga"
        required
        disabled={disabled}
        options={CARGAS_POSTE}
      />
      <SelectInput
        control={control}
        name="tipoRedeEletrica"
        label="Tipo de rede elétrica"
        required
        disabled={disabled}
        options={TIPOS_REDE_ELETRICA}
      />
      <CheckboxInput control={control} name="aterramento" label="Aterramento" disabled={disabled} />
      <SelectInput
        control={control}
        name="equipamentoRedeEnergia"
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
  initialValues: () => ({
    tipo: TIPO_POSTE_PADRAO,
    altura: '',
    carga: '',
    tipoRedeEletrica: '',
    aterramento: false,
    equipamentoRedeEnergia: EQUIPAMENTO_PADRAO,
    observacao: '',
  }),
  title: (record) => `Poste ${String(record.dados.tipo ?? '')}`,
  marker: (record) => ({ color: record.sincronizadoEm ? '#6a1b9a' : '#c62828', kind: 'mapa-poste' }),
  formTitle: 'Dados do poste',
  savedText: 'Poste gravado no aparelho.',
  editableRecord: false,
});
