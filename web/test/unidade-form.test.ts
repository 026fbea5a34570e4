// The unit form's rules (SPEC.md section 4) and its errors placed on their fields (section 5).
import { describe, expect, it } from 'vitest';
import { posteDadosSchema } from '@novus/domain/flows/poste';
import { unidadeDadosSchema } from '@novus/domain/flows/unidade';
import { fieldErrorsOf } from '../src/collect/shared/domain-resolver';
import { posteUi } from '../src/collect/poste/poste-ui';
import {
  initialUnidadeValues,
  withTipoEdificacao,
  withTipoUnidade,
} from '../src/collect/unidade/unidade-values';

const errorsOf = (values: unknown) => {
  const result = unidadeDadosSchema.safeParse(values);
  return result.success ? {} : fieldErrorsOf(result.error.issues);
};

describe('unit form rules', () => {
  it('changing to SDU clears the building fields', () => {
    const mdu = {
      ...initialUnidadeValues('MDU'),
      nomeEdificio: 'Ed. Sol',
      nomeBloco: 'A',
      totalAndares: '5',
      aptosPorAndar: '4',
    };
    const sdu = withTipoUnidade(mdu, 'SDU');
    expect(sdu).toMatchObject({
      tipoUnidade: 'SDU',
      nomeEdificio: '',
      nomeBloco: '',
      totalAndares: '',
      aptosPorAndar: '',
    });
    expect(sdu.quantidade).toBe('1');
  });

  it('changing to MDU clears complemento1-3 and quantidade', () => {
    const sdu = {
      ...initialUnidadeValues('SDU'),
      complemento1: 'casa 2',
      complemento2: 'x',
      complemento3: 'y',
      quantidade: '3',
    };
    expect(withTipoUnidade(sdu, 'MDU')).toMatchObject({
      tipoUnidade: 'MDU',
      complemento1: '',
      complemento2: '',
      complemento3: '',
      quantidade: '',
    });
  });

  it('Residencial presets tipoImovel RESIDENCIAL; another type drops a tipoImovel it does not have', () => {
    const comercial = { ...initialUnidadeValues('SDU'), tipoEdificacao: 'Comercial', tipoImovel: 'bar' };
    expect(withTipoEdificacao(comercial, 'Residencial').tipoImovel).toBe('RESIDENCIAL');
    expect(withTipoEdificacao(initialUnidadeValues('SDU'), 'Comercial').tipoImovel).toBe('');
    expect(initialUnidadeValues('SDU')).toMatchObject({
      tipoEdificacao: 'Residencial',
      tipoImovel: 'RESIDENCIAL',
      quantidade: '1',
    });
  });

  it('puts the schema errors on their fields, in Portuguese', () => {
    expect(errorsOf({ ...initialUnidadeValues('SDU'), numero: '' })).toEqual({
      numero: 'O número é obrigatório.',
    });
    expect(errorsOf({ ...initialUnidadeValues('SDU'), numero: '12a', quantidade: '' })).toEqual({
      numero: 'O número deve ser numérico.',
      quantidade: 'A quantidade é obrigatória.',
    });
    expect(errorsOf({ ...initialUnidadeValues('MDU'), numero: '10' })).toEqual({
      nomeEdificio: 'O nome do edifício é obrigatório.',
      totalAndares: 'O total de andares é obrigatório.',
      aptosPorAndar: 'O número de apartamentos por andar é obrigatório.',
    });
    expect(errorsOf({ ...initialUnidadeValues('SDU'), numero: '10' })).toEqual({});
  });

  it('the pole observação rule lands on observacao', () => {
    const result = posteDadosSchema.safeParse({
      ...posteUi.initialValues(),
      altura: 'OUTROS',
      carga: '300',
      tipoRedeEletrica: 'MISTA',
    });
    expect(result.success).toBe(false);
    if (!result.success)
      expect(fieldErrorsOf(result.error.issues)).toEqual({
        observacao: 'Informe a observação quando a altura ou a carga for OUTROS.',
      });
  });
});
