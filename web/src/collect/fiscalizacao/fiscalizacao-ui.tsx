// Fiscalização on the shared wizard (SPEC.md sections 3, 4 'Inspection'): each group of original values
// (pole, equipment, meter) shows only when the record has one; 'Corrigir' on a value reveals its correction.
import { useState } from 'react';
import { Checkbox, FormControlLabel, Stack, Typography } from '@mui/material';
import type { FormValuesOf } from '@novus/domain/flows/flow';
import {
  type CampoFiscalizado,
  correcaoField,
  FISCALIZACAO_GRUPOS,
  fiscalizacaoFlow,
} from '@novus/domain/flows/fiscalizacao';
import { defineFlowUi, type FieldsProps } from '../flow-ui';
import { CampoComLeitor } from '../shared/CampoComLeitor';
import { TextInput } from '../shared/fields';

type FiscalizacaoValues = FormValuesOf<typeof fiscalizacaoFlow.dados>;

/**
 * The values printed on a label: the meter's number and the equipment's plate. The scan button sits beside their
 * correction, the only input they have: the original is the preloaded value shown above it, and when the label
 * disagrees with it, scanning the label is how the technician corrects it.
 */
const LIDOS_DA_ETIQUETA: ReadonlySet<CampoFiscalizado> = new Set(['medidor', 'placa']);

const original = (dados: Record<string, unknown> | undefined, campo: CampoFiscalizado): string => {
  const value = dados?.[campo];
  return value === undefined || value === null ? '' : String(value).trim();
};

function FiscalizacaoFields({ form, record, disabled }: FieldsProps<FiscalizacaoValues>) {
  const { control, getValues, setValue } = form;
  // A correction already typed (a record opened again) starts with its box ticked.
  const [corrigindo, setCorrigindo] = useState<ReadonlySet<CampoFiscalizado>>(
    () =>
      new Set(
        FISCALIZACAO_GRUPOS.flatMap((grupo) => grupo.campos.map(({ campo }) => campo)).filter(
          (campo) => getValues(correcaoField(campo)) !== '',
        ),
      ),
  );
  const toggle = (campo: CampoFiscalizado, on: boolean) => {
    const next = new Set(corrigindo);
    if (on) next.add(campo);
    else {
      next.delete(campo);
      setValue(correcaoField(campo), '');
    }
    setCorrigindo(next);
  };
  const grupos = FISCALIZACAO_GRUPOS.map((grupo) => ({
    ...grupo,
    campos: grupo.campos.filter(({ campo }) => original(record?.dados, campo) !== ''),
  })).filter((grupo) => grupo.campos.length > 0);

  return (
    <Stack spacing={2}>
      {grupos.length === 0 && (
        <Typography variant="body2">Este ponto não tem valores originais a conferir.</Typography>
      )}
      {grupos.map((grupo) => (
        <Stack
          key={grupo.titulo}
          component="section"
          aria-label={grupo.titulo}
          spacing={1}
          sx={{ border: 1, borderColor: 'grey.400', borderRadius: 1, p: 1.5 }}
        >
          <Typography component="h2" variant="h6">
            {grupo.titulo}
          </Typography>
          {grupo.campos.map(({ campo, label }) => (
            <Stack key={campo} spacing={0.5}>
              <Typography>
                {label}: <strong>{original(record?.dados, campo)}</strong>
              </Typography>
              <FormControlLabel
                sx={{ minHeight: 48 }}
                control={
                  <Checkbox
                    checked={corrigindo.has(campo)}
                    disabled={disabled}
                    onChange={(event) => toggle(campo, event.target.checked)}
                  />
                }
                label={`Corrigir ${label}`}
              />
              {corrigindo.has(campo) &&
                (LIDOS_DA_ETIQUETA.has(campo) ? (
                  <CampoComLeitor
                    form={form}
                    name={correcaoField(campo)}
                    label={`${label} corrigido`}
                    disabled={disabled}
                  />
                ) : (
                  <TextInput
                    control={control}
                    name={correcaoField(campo)}
                    label={`${label} corrigido`}
                    disabled={disabled}
                  />
                ))}
            </Stack>
          ))}
        </Stack>
      ))}
      <TextInput control={control} name="observacao" label="Observação" multiline disabled={disabled} />
    </Stack>
  );
}

export const fiscalizacaoUi = defineFlowUi(fiscalizacaoFlow, {
  Fields: FiscalizacaoFields,
  initialValues: () => ({
    correcaoBarramento: '',
    correcaoTipo: '',
    correcaoMaterial: '',
    correcaoAltura: '',
    correcaoCarga: '',
    correcaoTipoEquipamento: '',
    correcaoPlaca: '',
    correcaoPotencia: '',
    correcaoFases: '',
    correcaoMedidor: '',
    correcaoFaseConsumidor: '',
    observacao: '',
  }),
  title: (record) => `Fiscalização${record.dados.placa ? ` placa ${String(record.dados.placa)}` : ''}`,
  marker: (record) => ({
    color: fiscalizacaoFlow.map.color,
    hollow: !record.coletado,
    kind: `mapa-fiscalizacao ${record.coletado ? 'mapa-coletado' : 'mapa-nao-coletado'}`,
  }),
  formTitle: 'Dados da fiscalização',
  savedText: 'Fiscalização gravada no aparelho.',
  editableRecord: true,
});
