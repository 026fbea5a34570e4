// LPT on the shared wizard (SPEC.md sections 3, 5): the concessionaire's list, Qtd. Casas 1..99, observação.
import { Stack } from '@mui/material';
import type { FormValuesOf } from '@novus/domain/flows/flow';
import { CONFIRMA_FOTOS } from '@novus/domain/flows/ip';
import { lptFlow } from '@novus/domain/flows/lpt';
import { defineFlowUi, type FieldsProps } from '../flow-ui';
import { CheckboxInput, TextInput } from '../shared/fields';

type LptValues = FormValuesOf<typeof lptFlow.dados>;

function LptFields({ form, disabled }: FieldsProps<LptValues>) {
  const { control } = form;
  return (
    <Stack spacing={2}>
      <CheckboxInput
        control={control}
        name="listaConcessionaria"
        label="Consta na lista da concessionária"
        disabled={disabled}
      />
      <TextInput control={control} name="qtdCasas" label="Qtd. Casas" required numeric disabled={disabled} />
      <TextInput control={control} name="observacao" label="Observação" multiline disabled={disabled} />
    </Stack>
  );
}

export const lptUi = defineFlowUi(lptFlow, {
  Fields: LptFields,
  initialValues: () => ({ listaConcessionaria: false, qtdCasas: '', observacao: '' }),
  title: (record) => `LPT${record.dados.qtdCasas ? `, ${String(record.dados.qtdCasas)} casa(s)` : ''}`,
  marker: (record) => ({
    color: lptFlow.map.color,
    hollow: !record.coletado,
    kind: `mapa-lpt ${record.coletado ? 'mapa-coletado' : 'mapa-nao-coletado'}`,
  }),
  formTitle: 'Dados do LPT',
  savedText: 'LPT gravado no aparelho.',
  confirmSave: CONFIRMA_FOTOS,
  editableRecord: true,
});
