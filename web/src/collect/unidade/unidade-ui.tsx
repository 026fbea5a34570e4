// The unit form's fields (SPEC.md sections 3–5), shared by the wizard and /unidade/:id.
import { Alert, Stack } from '@mui/material';
import type { UseFormReturn } from 'react-hook-form';
import {
  TIPO_UNIDADE_LABELS,
  TIPOS_EDIFICACAO,
  TIPOS_IMOVEL,
  TIPOS_UNIDADE,
  type TipoEdificacao,
} from '@novus/domain/lists/unidade';
import { SelectInput, TextInput } from '../shared/fields';
import { type UnidadeFormValues, withTipoEdificacao, withTipoUnidade } from './unidade-values';

export function UnidadeFields({ form }: { form: UseFormReturn<UnidadeFormValues> }) {
  const { control, watch, getValues, reset, formState } = form;
  const tipoUnidade = watch('tipoUnidade');
  const tipoEdificacao = watch('tipoEdificacao');
  const imoveis = TIPOS_IMOVEL[tipoEdificacao as TipoEdificacao] ?? [];
  // keepErrors: a rule change must not hide what is still wrong; keepDirty: the form is still being edited
  const replace = (values: UnidadeFormValues) =>
    reset(values, { keepErrors: true, keepDirty: true, keepDefaultValues: true, keepSubmitCount: true });
  const rootError = formState.errors.root?.message;

  return (
    <Stack spacing={2}>
      {rootError && <Alert severity="error">{rootError}</Alert>}
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
        onChange={(value) => replace(withTipoEdificacao(getValues(), value))}
      />
      <SelectInput control={control} name="tipoImovel" label="Tipo de imóvel" required options={imoveis} />
      <TextInput control={control} name="numero" label="Número" required numeric />
      <TextInput control={control} name="complementoNumero" label="Complemento do número" />
      {tipoUnidade === 'MDU' ? (
        <>
          <TextInput control={control} name="nomeEdificio" label="Nome do edifício" required />
          <TextInput control={control} name="nomeBloco" label="Nome do bloco" />
          <TextInput control={control} name="totalAndares" label="Total de andares" required numeric />
          <TextInput control={control} name="aptosPorAndar" label="Apartamentos por andar" required numeric />
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
          />
        </>
      )}
      <TextInput control={control} name="observacao" label="Observação" multiline />
    </Stack>
  );
}
