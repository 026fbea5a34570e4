// Client screens' texts (SPEC.md section 8).
import { LOG_SUFFIX } from '@novus/domain/messages';

export const CLIENTE_TEXT = {
  loadListFailed: `Falha ao carregar clientes.${LOG_SUFFIX}`,
  loadOneFailed: `Falha ao carregar cliente.${LOG_SUFFIX}`,
  createFailed: `Falha ao adicionar cliente.${LOG_SUFFIX}`,
  updateFailed: `Falha ao gravar alterações.${LOG_SUFFIX}`,
  deleteFailed: `Falha ao excluir cliente.${LOG_SUFFIX}`,
  created: 'Cliente adicionado com sucesso.',
  updated: 'Cliente alterado com sucesso.',
  deleted: 'Cliente excluído com sucesso',
} as const;
