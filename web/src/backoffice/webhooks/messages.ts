// The webhooks screen's texts (issue 27).
import { LOG_SUFFIX } from '@novus/domain/messages';
import type { EventoWebhook, StatusEntrega } from '@novus/domain/api/webhooks';

export const WEBHOOK_TEXT = {
  escolhaProjeto: 'Escolha um projeto para ver e cadastrar os seus webhooks.',
  vazio: 'Nenhum webhook cadastrado neste projeto.',
  semEntregas: 'Nenhuma entrega deste webhook ainda.',
  cadastrado: 'Webhook cadastrado.',
  guardeSegredo: 'Guarde o segredo agora: ele não será mostrado de novo.',
  excluido: 'Webhook excluído.',
  confirmarExclusao: 'Isso irá remover o webhook e o registro das suas entregas',
  reenviada: 'Entrega de volta na fila.',
  projetos: { log: 'Falha ao carregar projetos', text: `Falha ao carregar projetos.${LOG_SUFFIX}` },
  lista: { log: 'Falha ao carregar webhooks', text: `Falha ao carregar webhooks.${LOG_SUFFIX}` },
  entregas: { log: 'Falha ao carregar entregas', text: `Falha ao carregar entregas.${LOG_SUFFIX}` },
  falhaCadastro: { log: 'Falha ao cadastrar webhook', text: `Falha ao cadastrar webhook.${LOG_SUFFIX}` },
  falhaExclusao: { log: 'Falha ao excluir webhook', text: `Falha ao excluir webhook.${LOG_SUFFIX}` },
  falhaReenvio: { log: 'Falha ao reenviar entrega', text: `Falha ao reenviar entrega.${LOG_SUFFIX}` },
} as const;

/** The events as the screen names them (the API's own words, capitalised). */
export const EVENTO_LABEL: Record<EventoWebhook, string> = {
  'registro criado': 'Registro criado',
  'registro alterado': 'Registro alterado',
  revisão: 'Revisão',
};

export const STATUS_LABEL: Record<StatusEntrega, string> = {
  pendente: 'Pendente',
  entregue: 'Entregue',
  falhou: 'Falhou',
};

const QUANDO = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'medium' });

export function formatQuando(iso: string | null): string {
  return iso === null ? '—' : QUANDO.format(new Date(iso)).replace(',', '');
}
