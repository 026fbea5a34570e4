// Project screens' texts (SPEC.md section 8).
import { LOG_SUFFIX } from '@novus/domain/messages';

export const PROJETO_TEXT = {
  loadFailed: `Falha ao carregar projetos.${LOG_SUFFIX}`,
  createFailed: `Falha ao adicionar projeto.${LOG_SUFFIX}`,
  updateFailed: `Falha ao alterar projeto.${LOG_SUFFIX}`,
  deleteFailed: `Falha ao excluir projeto.${LOG_SUFFIX}`,
  created: 'Projeto adicionado com sucesso.',
  updated: 'Projeto alterado com sucesso.',
  deleted: 'Projeto excluído com sucesso',
  clienteRequired: 'Escolha o cliente do projeto.',
} as const;
