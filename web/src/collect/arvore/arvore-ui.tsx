// Vegetação / Árvore on the shared wizard (SPEC.md sections 3, 4 'Vegetation', 5): contact and projection as
// yes/no questions revealing the networks, the BT/MT distances only for a ticked network, height in metres.
import { useEffect, useState } from 'react';
import { Stack } from '@mui/material';
import { arvoreFlow, REDES } from '@novus/domain/flows/arvore';
import { defineFlowUi, type FieldsProps } from '../flow-ui';
import { TextInput } from '../shared/fields';
import { CheckboxListInput, SimNaoInput } from './arvore-inputs';
import {
  type ArvoreFormValues,
  type CampoRede,
  decimalBR,
  distanciasVisiveis,
  initialArvoreValues,
  type Resposta,
  respostasOf,
  withRedes,
  withResposta,
} from './arvore-values';

const PERGUNTAS: { campo: CampoRede; legend: string; lista: string }[] = [
  { campo: 'contatoRede', legend: 'Contato com a rede?', lista: 'Redes em contato' },
  { campo: 'projecaoRede', legend: 'Projeção sobre a rede?', lista: 'Redes sob a projeção' },
];

function ArvoreFields({ form, record, disabled }: FieldsProps<ArvoreFormValues>) {
  const { control, watch, getValues, setValue } = form;
  const stored = record !== null;
  const [respostas, setRespostas] = useState(() => respostasOf(getValues(), stored));
  useEffect(() => {
    const subscription = watch((_values, { name }) => {
      // A reset (Limpar, a record opened) names no field: the radios follow the lists again.
      if (name === undefined) setRespostas(respostasOf(getValues(), stored));
    });
    return () => subscription.unsubscribe();
  }, [watch, getValues, stored]);
  const [contatoRede, projecaoRede] = watch(['contatoRede', 'projecaoRede']);
  const visiveis = distanciasVisiveis({ contatoRede, projecaoRede });

  const apply = (next: ArvoreFormValues) => {
    const options = { shouldDirty: true };
    setValue('contatoRede', next.contatoRede, options);
    setValue('projecaoRede', next.projecaoRede, options);
    setValue('distanciaRedeBT', next.distanciaRedeBT, options);
    setValue('distanciaRedeMT', next.distanciaRedeMT, options);
  };
  const answer = (campo: CampoRede, resposta: Resposta) => {
    setRespostas((current) => ({ ...current, [campo]: resposta }));
    apply(withResposta(getValues(), campo, resposta));
  };

  return (
    <Stack spacing={2}>
      <TextInput
        control={control}
        name="altura"
        label="Altura (metros)"
        required
        decimal
        disabled={disabled}
      />
      <TextInput
        control={control}
        name="diametroTronco"
        label="Diâmetro do tronco (cm)"
        numeric
        disabled={disabled}
      />
      <TextInput control={control} name="fenotipo" label="Fenótipo" disabled={disabled} />
      {PERGUNTAS.map(({ campo, legend, lista }) => (
        <SimNaoInput
          key={campo}
          legend={legend}
          value={respostas[campo]}
          onChange={(resposta) => answer(campo, resposta)}
          disabled={disabled}
        >
          <CheckboxListInput
            control={control}
            name={campo}
            legend={lista}
            options={REDES}
            disabled={disabled}
            onChange={(redes) => apply(withRedes(getValues(), campo, redes))}
          />
        </SimNaoInput>
      ))}
      {visiveis.distanciaRedeBT && (
        <TextInput
          control={control}
          name="distanciaRedeBT"
          label="Distância da rede BT (cm)"
          numeric
          disabled={disabled}
        />
      )}
      {visiveis.distanciaRedeMT && (
        <TextInput
          control={control}
          name="distanciaRedeMT"
          label="Distância da rede MT (cm)"
          numeric
          disabled={disabled}
        />
      )}
      <TextInput control={control} name="observacao" label="Observação" multiline disabled={disabled} />
    </Stack>
  );
}

export const arvoreUi = defineFlowUi(arvoreFlow, {
  Fields: ArvoreFields,
  initialValues: initialArvoreValues,
  title: (record) => `Vegetação${record.dados.altura ? `, ${decimalBR(record.dados.altura)} m` : ''}`,
  marker: () => ({ color: arvoreFlow.map.color, kind: 'mapa-arvore' }),
  formTitle: 'Dados da vegetação',
  savedText: 'Vegetação gravada no aparelho.',
  editableRecord: true,
});
