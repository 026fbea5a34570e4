// The unit form's values and the rules that tie its fields together (SPEC.md section 4).
import type { FormValuesOf } from '@novus/domain/flows/flow';
import type { unidadeFlow } from '@novus/domain/flows/unidade';
import {
  TIPO_IMOVEL_PRESET,
  TIPOS_IMOVEL,
  type TipoEdificacao,
  type TipoUnidade,
} from '@novus/domain/lists/unidade';

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
