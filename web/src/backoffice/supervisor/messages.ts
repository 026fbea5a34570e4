// Texts of the supervisor screen (SPEC.md sections 2 and 8).
import { LOG_SUFFIX } from '@novus/domain/messages';
import { NO_DATA } from '../extrator/messages';

export const SUPERVISOR_TEXT = {
  title: 'Supervisão de Projetos',
  noData: NO_DATA,
  mapLabel: 'Mapa de supervisão',
  /** The base layers: the configured street tiles, and the project's own package when it has one (issue 23). */
  ruas: 'Ruas',
  mapaDoProjeto: 'Mapa do projeto',
  conflito: 'Coletado em mais de um aparelho',
  noEstatistica: 'Nenhum registro no período.',
} as const;

/** What goes to /api/logger and what the screen shows when the server sent no message of its own. */
export const SUPERVISOR_FAILURE = {
  mapa: { log: 'Falha ao carregar mapa do projeto', text: `Falha ao carregar mapa do projeto.${LOG_SUFFIX}` },
  estatistica: {
    log: 'Falha ao carregar estatística do projeto',
    text: `Falha ao carregar estatística.${LOG_SUFFIX}`,
  },
  registro: { log: 'Falha ao carregar registro do mapa', text: `Falha ao carregar registro.${LOG_SUFFIX}` },
  tiles: { log: 'Falha ao carregar a configuração do mapa' },
  mapaBase: {
    log: 'Falha ao carregar o mapa offline do projeto',
    text: `Falha ao carregar o mapa offline do projeto.${LOG_SUFFIX}`,
  },
} as const;
