// Grupo A on the shared wizard (SPEC.md sections 3, 5): UC and Medidor required, the two survey ticks,
// observação; its photos keep their EXIF (the declaration says so).
import { Stack } from '@mui/material';
import type { FormValuesOf } from '@novus/domain/flows/flow';
import { grupoAFlow } from '@novus/domain/flows/grupo-a';
import { defineFlowUi, type FieldsProps } from '../flow-ui';
import { CampoComLeitor } from '../shared/CampoComLeitor';
import { CheckboxInput, TextInput } from '../shared/fields';

type GrupoAValues = FormValuesOf<typeof grupoAFlow.dados>;

function GrupoAFields({ form, disabled }: FieldsProps<GrupoAValues>) {
  const { control } = form;
  return (
    <Stack spacing={2}>
      <CampoComLeitor form={form} name="uc" label="UC" required disabled={disabled} />
      <CampoComLeitor form={form} name="medidor" label="Medidor" required disabled={disabled} />
      <CheckboxInput
        control={control}
        name="levantamentoAcompanhado"
        label="Levantamento acompanhado"
        disabled={disabled}
      />
      <CheckboxInput
        control={control}
        name="levantamentoAutorizado"
        label="Levantamento autorizado"
        disabled={disabled}
      />
      <TextInput control={control} name="observacao" label="Observação" multiline disabled={disabled} />
    </Stack>
  );
}

export const grupoAUi = defineFlowUi(grupoAFlow, {
  Fields: GrupoAFields,
  initialValues: () => ({
    uc: '',
    medidor: '',
    levantamentoAcompanhado: false,
    levantamentoAutorizado: false,
    observacao: '',
  }),
  title: (record) => `Grupo A${record.dados.uc ? `, UC ${String(record.dados.uc)}` : ''}`,
  marker: () => ({ color: grupoAFlow.map.color, kind: 'mapa-grupoa' }),
  formTitle: 'Dados do Grupo A',
  savedText: 'Grupo A gravado no aparelho.',
  editableRecord: true,
});
