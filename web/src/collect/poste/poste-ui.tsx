// The pole form's fields, shared by the wizard and /poste/:id (read-only there).
import { Stack } from '@mui/material';
import type { Control } from 'react-hook-form';
import {
  ALTURAS_POSTE,
  CARGAS_POSTE,
  EQUIPAMENTOS_REDE,
  TIPOS_POSTE,
  TIPOS_REDE_ELETRICA,
} from '@novus/domain/lists/poste';
import { CheckboxInput, SelectInput, TextInput } from '../shared/fields';
import type { PosteFormValues } from './poste-values';

export function PosteFields({
  control,
  disabled,
  observacaoRequired,
}: {
  control: Control<PosteFormValues>;
  disabled?: boolean;
  observacaoRequired?: boolean;
}) {
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
