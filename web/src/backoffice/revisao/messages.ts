// Texts of the 'Revisão' screen (issue 24; SPEC.md section 8 for failures).
import { LOG_SUFFIX } from '@novus/domain/messages';

export const REVISAO_TEXT = {
  title: 'Revisão',
  lista: 'Registros',
  semRegistros: 'Nenhum registro para estes filtros.',
  escolhaRegistro: 'Escolha um registro da lista para revisá-lo.',
  aprovado: 'Registro aprovado.',
  reprovado: 'Registro reprovado.',
  excluido: 'Registro excluído.',
  aprovadosLote: (n: number) => (n === 1 ? '1 registro aprovado.' : `${n} registros aprovados.`),
  nadaAAprovar: 'Todos os registros destes filtros já estão aprovados.',
  limitesGravados: 'Limites de qualidade gravados.',
  comentarioObrigatorio: 'Informe o motivo da reprovação.',
  campoObrigatorio: 'Diga o que está errado neste campo.',
} as const;

/** What goes to /api/logger and what the screen shows when the server sent no message of its own. */
export const REVISAO_FAILURE = {
  lista: {
    log: 'Falha ao carregar a revisão',
    text: `Falha ao carregar os registros para revisão.${LOG_SUFFIX}`,
  },
  historico: { log: 'Falha ao carregar o histórico', text: `Falha ao carregar o histórico.${LOG_SUFFIX}` },
  decisao: { log: 'Falha ao gravar a revisão', text: `Falha ao gravar a revisão.${LOG_SUFFIX}` },
  lote: { log: 'Falha ao aprovar em lote', text: `Falha ao aprovar os registros.${LOG_SUFFIX}` },
  exclusao: { log: 'Falha ao excluir registro', text: `Falha ao excluir registro.${LOG_SUFFIX}` },
  limites: {
    log: 'Falha ao carregar os limites de qualidade',
    text: `Falha ao carregar os limites de qualidade.${LOG_SUFFIX}`,
  },
  limitesGravar: {
    log: 'Falha ao gravar os limites de qualidade',
    text: `Falha ao gravar os limites de qualidade.${LOG_SUFFIX}`,
  },
  tiles: { log: 'Falha ao carregar a configuração do mapa' },
} as const;
