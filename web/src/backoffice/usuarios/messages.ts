// User screens' texts (SPEC.md section 8).
import { LOG_SUFFIX } from '@novus/domain/messages';

export const USUARIO_TEXT = {
  loadListFailed: `Falha ao carregar usuários.${LOG_SUFFIX}`,
  loadOneFailed: `Falha ao carregar usuário.${LOG_SUFFIX}`,
  createFailed: `Falha ao adicionar usuário.${LOG_SUFFIX}`,
  updateFailed: `Falha ao gravar alterações.${LOG_SUFFIX}`,
  deleteFailed: `Falha ao excluir usuário.${LOG_SUFFIX}`,
  created: 'Usuário adicionado com sucesso.',
  updated: 'Usuário alterado com sucesso.',
  deleted: 'Usuário excluído com sucesso',
} as const;
