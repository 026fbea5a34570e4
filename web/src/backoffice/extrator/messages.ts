// Texts of the Extrator and Relatórios screens (SPEC.md sections 2 and 8).
import { LOG_SUFFIX } from '@novus/domain/messages';
import { PROJETO_TEXT } from '../projetos/messages';

export const NO_DATA = 'Não há dados a serem exibidos';

/** What goes to /api/logger and what the screen shows when the server sent no message of its own. */
export const LOAD_FAILURE = {
  projetos: { log: 'Falha ao carregar projetos', text: PROJETO_TEXT.loadFailed },
  datas: {
    log: 'Falha ao carregar datas do projeto',
    text: `Falha ao carregar datas do projeto.${LOG_SUFFIX}`,
  },
  extracao: {
    log: 'Falha ao carregar extração',
    text: `Falha ao carregar arquivos do extrator.${LOG_SUFFIX}`,
  },
  relatorio: { log: 'Falha ao carregar relatório', text: `Falha ao carregar relatório.${LOG_SUFFIX}` },
  produtividade: {
    log: 'Falha ao carregar produtividade',
    text: `Falha ao carregar produtividade.${LOG_SUFFIX}`,
  },
} as const;
