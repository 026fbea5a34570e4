// The vegetation form's rules (SPEC.md section 4 'Vegetation') and its errors placed on their fields (section 5).
import { describe, expect, it } from 'vitest';
import { arvoreDadosSchema } from '@novus/domain/flows/arvore';
import { fieldErrorsOf } from '../src/collect/shared/domain-resolver';
import {
  distanciasVisiveis,
  initialArvoreValues,
  respostasOf,
  withRedes,
  withResposta,
} from '../src/collect/arvore/arvore-values';

const errorsOf = (values: unknown) => {
  const result = arvoreDadosSchema.safeParse(values);
  return result.success ? {} : fieldErrorsOf(result.error.issues);
};

describe('vegetation form rules', () => {
  it('ticking Baixa Tensão or Média Tensão in contact sets its distance to 0', () => {
    const bt = withRedes(initialArvoreValues(), 'contatoRede', ['Baixa Tensão']);
    expect(bt).toMatchObject({ contatoRede: ['Baixa Tensão'], distanciaRedeBT: '0', distanciaRedeMT: '' });
    const ambas = withRedes(bt, 'contatoRede', ['Média Tensão', 'Baixa Tensão', 'Ramal de Serviço']);
    expect(ambas).toMatchObject({
      contatoRede: ['Baixa Tensão', 'Média Tensão', 'Ramal de Serviço'],
      distanciaRedeBT: '0',
      distanciaRedeMT: '0',
    });
  });

  it('ticking a network in projection shows its distance without filling it', () => {
    const values = withRedes(initialArvoreValues(), 'projecaoRede', ['Média Tensão']);
    expect(values.distanciaRedeMT).toBe('');
    expect(distanciasVisiveis(values)).toEqual({ distanciaRedeBT: false, distanciaRedeMT: true });
    expect(distanciasVisiveis(initialArvoreValues())).toEqual({
      distanciaRedeBT: false,
      distanciaRedeMT: false,
    });
  });

  it('answering Não clears the list and the distances no list needs any more', () => {
    let values = withRedes(initialArvoreValues(), 'contatoRede', ['Baixa Tensão', 'Média Tensão']);
    values = withRedes(values, 'projecaoRede', ['Média Tensão']);
    values = { ...values, distanciaRedeMT: '40' };
    const nao = withResposta(values, 'contatoRede', 'nao');
    expect(nao).toMatchObject({
      contatoRede: [],
      projecaoRede: ['Média Tensão'],
      distanciaRedeBT: '',
      distanciaRedeMT: '40',
    });
    expect(withResposta(values, 'contatoRede', 'sim')).toBe(values);
  });

  it('a network leaving contact drops the 0 the contact gave it', () => {
    let values = withRedes(initialArvoreValues(), 'projecaoRede', ['Baixa Tensão']);
    values = withRedes(values, 'contatoRede', ['Baixa Tensão']);
    expect(values.distanciaRedeBT).toBe('0');
    expect(withRedes(values, 'contatoRede', []).distanciaRedeBT).toBe('');
  });

  it('the radios show Sim for a ticked list, Não for a stored tree without one, nothing for a new tree', () => {
    const values = withRedes(initialArvoreValues(), 'contatoRede', ['Ramal de Serviço']);
    expect(respostasOf(values, false)).toEqual({ contatoRede: 'sim', projecaoRede: '' });
    expect(respostasOf(values, true)).toEqual({ contatoRede: 'sim', projecaoRede: 'nao' });
  });
});

describe('vegetation form validation', () => {
  const valid = { ...initialArvoreValues(), altura: '8,5' };

  it('accepts a height with a comma and refuses an empty one in Portuguese under Altura', () => {
    expect(errorsOf(valid)).toEqual({});
    expect(arvoreDadosSchema.parse(valid).altura).toBe('8.5');
    expect(errorsOf({ ...valid, altura: '' })).toEqual({ altura: 'A altura é obrigatória.' });
    expect(errorsOf({ ...valid, diametroTronco: '30 cm' })).toEqual({
      diametroTronco: 'O diâmetro do tronco deve ser um número.',
    });
  });

  it('sends no distance for a network ticked in neither list', () => {
    const form = { ...valid, contatoRede: ['Baixa Tensão'], distanciaRedeBT: '0', distanciaRedeMT: '120' };
    expect(arvoreDadosSchema.parse(form)).toMatchObject({ distanciaRedeBT: '0', distanciaRedeMT: '' });
    const semContato = withResposta(withRedes(valid, 'contatoRede', ['Baixa Tensão']), 'contatoRede', 'nao');
    expect(arvoreDadosSchema.parse(semContato)).toMatchObject({ distanciaRedeBT: '', distanciaRedeMT: '' });
  });
});
