// The unit form's values and the rules that tie its fields together (SPEC.md section 4).
import type { FormValuesOf } from '@novus/domain/flows/flow';
import type { unidadeFlow } from '@novus/domain/flows/unidade';
import {
  TIPO_IMOVEL_PRESET,
  TIPOS_IMOVEL,
  type TipoEdificacao,
  type TipoUnidade,
} from '@novus/domain/lists/unidade';
import { copiedFields } from '../shared/repetir';

export type UnidadeFormValues = FormValuesOf<typeof unidadeFlow.dados>;

const BUILDING_FIELDS = ['nomeEdificio', 'nomeBloco', 'totalAndares', 'aptosPorAndar'] as const;
const SDU_FIELDS = ['complemento1', 'complemento2', 'complemento3', 'quantidade'] as const;

/** A new unit of the type chosen on step 1, with the presets a technician would pick anyway. */
export function initialUnidadeValues(tipoUnidade: TipoUnidade | '' = ''): UnidadeFormValues {
  const tipoEdificacao: TipoEdificacao =
    tipoUnidade === 'VAZIO' ? 'Vazio' : tipoUnidade === 'FUNDOS' ? 'Fundos' : 'Residencial';
  return {
    tipoUnidade,
    tipoEdificacao,
    tipoImovel: TIPO_IMOVEL_PRESET[tipoEdificacao] ?? '',
    numero: '',
    complementoNumero: '',
    complemento1: '',
    complemento2: '',
    complemento3: '',
    quantidade: tipoUnidade === 'MDU' ? '' : '1',
    nomeEdificio: '',
    nomeBloco: '',
    totalAndares: '',
    aptosPorAndar: '',
    observacao: '',
    drop: '',
  };
}

/** Changing to SDU clears the building fields; changing to MDU clears complemento1-3 and quantidade. */
export function withTipoUnidade(values: UnidadeFormValues, tipoUnidade: string): UnidadeFormValues {
  const next = { ...values, tipoUnidade };
  if (tipoUnidade === 'SDU') {
    for (const field of BUILDING_FIELDS) next[field] = '';
    if (values.tipoUnidade !== 'SDU') next.quantidade = '1';
  }
  if (tipoUnidade === 'MDU') for (const field of SDU_FIELDS) next[field] = '';
  return next;
}

/** Choosing Residencial presets tipoImovel to RESIDENCIAL; a tipoImovel of another building type is cleared. */
export function withTipoEdificacao(values: UnidadeFormValues, tipoEdificacao: string): UnidadeFormValues {
  const allowed = TIPOS_IMOVEL[tipoEdificacao as TipoEdificacao] ?? [];
  const preset = TIPO_IMOVEL_PRESET[tipoEdificacao as TipoEdificacao];
  const tipoImovel = preset ?? (allowed.includes(values.tipoImovel) ? values.tipoImovel : '');
  return { ...values, tipoEdificacao, tipoImovel };
}

/**
 * What 'Repetir último' copies from the technician's previous unit (issue 26), into a unit of the type chosen on
 * step 1. The type itself is not repeated: the technician has just chosen it, and it decides which fields exist.
 * What identifies the unit is never copied: numero, complementoNumero and complemento1-3 (its address), the drop
 * (chosen on the map, like the coordinates), nomeBloco (the next block of the same building) and the observação.
 * VAZIO and FUNDOS have nothing to repeat: step 1 presets their building and property types.
 */
export function repeatedUnidade(
  previous: UnidadeFormValues,
  current: UnidadeFormValues,
): Partial<UnidadeFormValues> {
  const tipoUnidade = current.tipoUnidade;
  if (tipoUnidade !== 'SDU' && tipoUnidade !== 'MDU') return {};
  const own = tipoUnidade === 'SDU' ? (['quantidade'] as const) : REPEATED_BUILDING_FIELDS;
  const copied = copiedFields(previous, own);
  // The building and property types go together (the property's list depends on the building's). A vacant lot's
  // or a back house's (Vazio, Fundos) describes no house or building.
  const edificacao = previous.tipoEdificacao as TipoEdificacao;
  const imoveis = TIPOS_IMOVEL[edificacao] ?? [];
  if (edificacao !== 'Vazio' && edificacao !== 'Fundos' && imoveis.includes(previous.tipoImovel)) {
    copied.tipoEdificacao = edificacao;
    copied.tipoImovel = previous.tipoImovel;
  }
  return copied;
}

const REPEATED_BUILDING_FIELDS = ['nomeEdificio', 'totalAndares', 'aptosPorAndar'] as const;
