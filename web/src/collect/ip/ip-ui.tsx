// Uso Mútuo / IP on the shared wizard (SPEC.md sections 3, 4 'Form interplay, ip', 5): 'no use nor IP' and
// the other two exclude each other, the IP anomaly only with IP, and at least one item before Gravar.
import { Alert, FormControl, FormGroup, FormLabel, Stack } from '@mui/material';
import type { FormValuesOf } from '@novus/domain/flows/flow';
import { CONFIRMA_FOTOS, ESCOLHA_UM_ITEM, ipFlow } from '@novus/domain/flows/ip';
import { defineFlowUi, type FieldsProps } from '../flow-ui';
import { CheckboxInput, TextInput } from '../shared/fields';
import { SequencialText, sequencialOf } from '../shared/SequencialText';

type IpValues = FormValuesOf<typeof ipFlow.dados>;

function IpFields({ form, record, disabled }: FieldsProps<IpValues>) {
  const { control, watch, setValue, formState } = form;
  const [possuiIP, possuiUsoMutuo, nenhum] = watch(['possuiIP', 'possuiUsoMutuo', 'naoPossuiIPouUsoMutuo']);
  const itemError = formState.errors.possuiIP?.message;
  return (
    <Stack spacing={2}>
      <SequencialText record={record} testId="ip-sequencial" />
      <FormControl component="fieldset" error={itemError !== undefined}>
        <FormLabel component="legend">Itens do poste</FormLabel>
        <FormGroup>
          <CheckboxInput
            control={control}
            name="possuiUsoMutuo"
            label="Possui uso mútuo"
            disabled={disabled || nenhum}
          />
          <CheckboxInput
            control={control}
            name="possuiIP"
            label="Possui IP"
            disabled={disabled || nenhum}
            onChange={(checked) => {
              // unticking IP clears its anomaly (SPEC.md section 4)
              if (!checked) setValue('possuiIrregularidade', false);
            }}
          />
          <CheckboxInput
            control={control}
            name="possuiIrregularidade"
            label="IP com anomalia"
            disabled={disabled || !possuiIP}
          />
          <CheckboxInput
            control={control}
            name="naoPossuiIPouUsoMutuo"
            label="Não possui IP nem uso mútuo"
            disabled={disabled || possuiIP || possuiUsoMutuo}
          />
          <CheckboxInput control={control} name="bdgd" label="BDGD" disabled={disabled} />
        </FormGroup>
        {itemError && <Alert severity="error">{itemError}</Alert>}
      </FormControl>
      <FormGroup>
        <CheckboxInput
          control={control}
          name="possuiAnomaliaPoste"
          label="Poste com anomalia"
          disabled={disabled}
        />
      </FormGroup>
      <TextInput
        control={control}
        name="quantidadeCompartilhamento"
        label="Quantidade de compartilhamentos"
        numeric
        disabled={disabled}
      />
      <TextInput control={control} name="idConcessionaria" label="ID da concessionária" disabled={disabled} />
      <TextInput control={control} name="idCircuito" label="ID do circuito" disabled={disabled} />
    </Stack>
  );
}

/** lime = not collected, fuchsia = collected, red = collected and loaded from the back office (SPEC.md 4). */
export function ipColor(record: { coletado?: boolean; carregadoBackoffice?: boolean }): string {
  if (!record.coletado) return 'lime';
  return record.carregadoBackoffice ? 'red' : 'fuchsia';
}

export const ipUi = defineFlowUi(ipFlow, {
  Fields: IpFields,
  initialValues: () => ({
    possuiUsoMutuo: false,
    possuiIP: false,
    naoPossuiIPouUsoMutuo: false,
    possuiIrregularidade: false,
    possuiAnomaliaPoste: false,
    bdgd: false,
    quantidadeCompartilhamento: '0',
    idConcessionaria: '',
    idCircuito: '',
  }),
  title: (record) => {
    const id = record.dados.idConcessionaria ? ` ${String(record.dados.idConcessionaria)}` : '';
    const sequencial = sequencialOf(record);
    return `Uso Mútuo / IP${id}${sequencial ? ` nº ${sequencial}` : ''}`;
  },
  marker: (record) => ({
    color: ipColor(record),
    kind: `mapa-ip ${record.coletado ? 'mapa-coletado' : 'mapa-nao-coletado'}`,
  }),
  formTitle: 'Dados do ponto',
  savedText: 'Ponto gravado no aparelho.',
  confirmSave: CONFIRMA_FOTOS,
  onInvalid: (errors) => {
    if (errors.possuiIP?.message === ESCOLHA_UM_ITEM) window.alert(ESCOLHA_UM_ITEM);
  },
  editableRecord: true,
});
