// The pole form's values (SPEC.md sections 3 and 5) and defaults.
import { EQUIPAMENTO_PADRAO, TIPO_POSTE_PADRAO } from '@novus/domain/lists/poste';

export interface PosteFormValues {
  tipo: string;
  altura: string;
  carga: string;
  tipoRedeEletrica: string;
  aterramento: boolean;
  equipamentoRedeEnergia: string;
  observacao: string;
}

export function initialPosteValues(): PosteFormValues {
  return {
    tipo: TIPO_POSTE_PADRAO,
    altura: '',
    carga: '',
    tipoRedeEletrica: '',
    aterramento: false,
    equipamentoRedeEnergia: EQUIPAMENTO_PADRAO,
    observacao: '',
  };
}

export function posteValuesOf(dados: Record<string, unknown>): PosteFormValues {
  const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));
  return {
    tipo: text(dados.tipo),
    altura: text(dados.altura),
    carga: text(dados.carga),
    tipoRedeEletrica: text(dados.tipoRedeEletrica),
    aterramento: dados.aterramento === true || dados.aterramento === 'true',
    equipamentoRedeEnergia: text(dados.equipamentoRedeEnergia),
    observacao: text(dados.observacao),
  };
}
