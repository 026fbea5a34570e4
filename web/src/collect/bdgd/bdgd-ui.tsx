// BDGD on the shared wizard (SPEC.md sections 3, 4, 9): the asset type with its colour (hollow until
// collected), the sequencial the server decides, and a preloaded asset moved to where it really is.
import { Stack, Typography } from '@mui/material';
import type { FormValuesOf } from '@novus/domain/flows/flow';
import { BDGD_ATIVOS, bdgdFlow } from '@novus/domain/flows/bdgd';
import { defineFlowUi, type FieldsProps } from '../flow-ui';
import { CampoComLeitor } from '../shared/CampoComLeitor';
import { SelectInput, TextInput } from '../shared/fields';
import { SequencialText, sequencialOf } from '../shared/SequencialText';

type BdgdValues = FormValuesOf<typeof bdgdFlow.dados>;

/** One colour per asset type (the supervisor map and the project form use their own layer colours). */
export const BDGD_CORES: Record<(typeof BDGD_ATIVOS)[number], string> = {
  Poste: '#1565c0',
  Medidor: '#2e7d32',
  Chave: '#ef6c00',
  Transformador: '#c62828',
  Religador: '#6a1b9a',
  BancoCapacitor: '#00838f',
  regulador: '#5d4037',
};

function BdgdFields({ form, record, disabled }: FieldsProps<BdgdValues>) {
  const { control, watch } = form;
  const moved = watch('coordenadasAtualizadas');
  return (
    <Stack spacing={2}>
      <SequencialText record={record} testId="bdgd-sequencial" />
      <SelectInput
        control={control}
        name="ativo"
        label="Tipo de ativo"
        required
        disabled={disabled}
        options={BDGD_ATIVOS}
      />
      <CampoComLeitor form={form} name="idConcessionaria" label="ID da concessionária" disabled={disabled} />
      {moved && <Typography variant="body2">Coordenadas atualizadas neste levantamento.</Typography>}
      <TextInput control={control} name="observacao" label="Observação" multiline disabled={disabled} />
    </Stack>
  );
}

export const bdgdUi = defineFlowUi(bdgdFlow, {
  Fields: BdgdFields,
  initialValues: () => ({ ativo: '', idConcessionaria: '', coordenadasAtualizadas: false, observacao: '' }),
  title: (record) => {
    const sequencial = sequencialOf(record);
    return `BDGD ${String(record.dados.ativo ?? '')}${sequencial ? ` nº ${sequencial}` : ''}`;
  },
  marker: (record) => ({
    color: BDGD_CORES[record.dados.ativo as keyof typeof BDGD_CORES] ?? '#455a64', // unknown types get grey
    hollow: !record.coletado,
    kind: `mapa-bdgd ${record.coletado ? 'mapa-coletado' : 'mapa-nao-coletado'}`,
  }),
  formTitle: 'Dados do ativo',
  savedText: 'BDGD gravado no aparelho.',
  movedField: 'coordenadasAtualizadas',
  editableRecord: true,
});
