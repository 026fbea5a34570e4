// The vegetation form's values and the rules that tie its fields together (SPEC.md sections 4 'Vegetation', 5).
import type { FormValuesOf } from '@novus/domain/flows/flow';
import { type arvoreFlow, DISTANCIAS, redeMarcada, REDES } from '@novus/domain/flows/arvore';

export type ArvoreFormValues = FormValuesOf<typeof arvoreFlow.dados>;
export type CampoRede = 'contatoRede' | 'projecaoRede';
/** The yes/no radio of a network question; '' while a new tree's question is unanswered. */
export type Resposta = 'sim' | 'nao' | '';
export type Respostas = Record<CampoRede, Resposta>;

export function initialArvoreValues(): ArvoreFormValues {
  return {
    contatoRede: [],
    projecaoRede: [],
    distanciaRedeBT: '',
    distanciaRedeMT: '',
    diametroTronco: '',
    fenotipo: '',
    altura: '',
    observacao: '',
  };
}

/**
 * The answers the form's lists show: a ticked network means Sim; a stored tree with none ticked was answered
 * Não; a new tree waits for the technician.
 */
export function respostasOf(values: Pick<ArvoreFormValues, CampoRede>, stored: boolean): Respostas {
  const of = (redes: readonly string[]): Resposta => (redes.length > 0 ? 'sim' : stored ? 'nao' : '');
  return { contatoRede: of(values.contatoRede), projecaoRede: of(values.projecaoRede) };
}

/**
 * Ticks `redes` in one list. A BT or MT network newly in contact is at distance '0'; a network ticked in
 * neither list has no distance, and one leaving contact drops the '0' the contact gave it.
 */
export function withRedes(
  values: ArvoreFormValues,
  campo: CampoRede,
  redes: readonly string[],
): ArvoreFormValues {
  const next = { ...values, [campo]: REDES.filter((rede) => redes.includes(rede)) };
  for (const { campo: distancia, rede } of DISTANCIAS) {
    const antes = values.contatoRede.includes(rede);
    const agora = next.contatoRede.includes(rede);
    if (!antes && agora) next[distancia] = '0';
    else if (!redeMarcada(next, rede) || (antes && !agora && next[distancia] === '0')) next[distancia] = '';
  }
  return next;
}

/** Answering Não clears the list (SPEC.md section 4); Sim only reveals it. */
export function withResposta(
  values: ArvoreFormValues,
  campo: CampoRede,
  resposta: Resposta,
): ArvoreFormValues {
  return resposta === 'nao' ? withRedes(values, campo, []) : values;
}

/** A distance field shows only while its network is ticked in contact or projection. */
export function distanciasVisiveis(
  values: Pick<ArvoreFormValues, CampoRede>,
): Record<'distanciaRedeBT' | 'distanciaRedeMT', boolean> {
  return {
    distanciaRedeBT: redeMarcada(values, 'Baixa Tensão'),
    distanciaRedeMT: redeMarcada(values, 'Média Tensão'),
  };
}

/** '8.5' as stored, '8,5' as a Brazilian reads it. */
export const decimalBR = (value: unknown): string => String(value ?? '').replace('.', ',');
