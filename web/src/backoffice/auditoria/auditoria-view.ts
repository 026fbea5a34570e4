// How the Auditoria screen writes an entry: the object's kind and name, the action, and the fields that changed
// as 'before → after' in the words of the back-office forms.
import { FUSO_HORARIO } from '@novus/domain/export/columns';
import { FLUXO_FORM_LABELS, PRELOADED_FLOWS } from '@novus/domain/flows/registry';
import { isRole, ROLE_LABELS } from '@novus/domain/roles';
import type { Entrada } from '@novus/domain/api/auditoria';

export const ACAO_LABELS: Record<string, string> = {
  criar: 'Criação',
  alterar: 'Alteração',
  excluir: 'Exclusão',
  importar: 'Importação',
  recusar: 'Entrada recusada',
};

const ENTIDADE_LABELS: Record<string, string> = {
  cliente: 'Cliente',
  projeto: 'Projeto',
  usuario: 'Usuário',
  zonas: 'Zoneamento (KML)',
  pendentes: 'Pendentes de um aparelho',
  acesso: 'Conta da empresa',
  ...Object.fromEntries(PRELOADED_FLOWS.map((flow) => [`pontos:${flow.key}`, flow.preload.fileLabel])),
};

const CAMPO_LABELS: Record<string, string> = {
  nome: 'Nome',
  cliente: 'Cliente',
  fluxos: 'Fluxos',
  fuso: 'Fuso',
  disponivelInterpres: 'Disponibilizar no Interpres',
  limiteDownload: 'Limite de download',
  carimboFotos: 'Carimbar as fotos',
  retencaoCopiasDias: 'Cópias de segurança no aparelho (dias)',
  login: 'Login',
  firstName: 'Primeiro Nome',
  lastName: 'Sobrenome',
  roles: 'Perfis',
  zonas: 'Zonas',
  senhaAlterada: 'Senha',
  projeto: 'Projeto',
  hectares: 'Área (ha)',
  pontos: 'Pontos',
  motivo: 'Motivo',
  provedor: 'Provedor',
};

export function acaoLabel(acao: string): string {
  return ACAO_LABELS[acao] ?? acao;
}

export function entidadeLabel(entidade: string): string {
  return ENTIDADE_LABELS[entidade] ?? entidade;
}

/** The object's name as the entry knows it (a client's or project's name, a user's login). */
export function objetoNome(entrada: Entrada): string | undefined {
  const valores = entrada.depois ?? entrada.antes ?? {};
  for (const key of ['nome', 'login', 'projeto']) {
    const value = valores[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

const NUMERO = new Intl.NumberFormat('pt-BR');
const VAZIO = '—';

function item(campo: string, value: unknown): string {
  if (typeof value !== 'string') return formatValor(campo, value);
  if (campo === 'roles' && isRole(value)) return ROLE_LABELS[value];
  if (campo === 'fluxos' && value in FLUXO_FORM_LABELS) {
    return FLUXO_FORM_LABELS[value as keyof typeof FLUXO_FORM_LABELS]; // checked by `in` just above
  }
  return value;
}

/** One value as a person reads it: 'Sim'/'Não', pt-BR numbers, role and flow names, '—' for nothing. */
export function formatValor(campo: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return VAZIO;
  if (campo === 'senhaAlterada') return value === true ? 'alterada' : VAZIO;
  if (typeof value === 'boolean') return value ? 'Sim' : 'Não';
  if (typeof value === 'number') return NUMERO.format(value);
  if (Array.isArray(value)) return value.length === 0 ? VAZIO : value.map((v) => item(campo, v)).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return item(campo, value);
}

export interface Mudanca {
  campo: string;
  antes: string;
  depois: string;
}

/**
 * The fields of an entry that changed, in the order the values list them; a creation shows every field after,
 * a deletion every field before.
 */
export function mudancas(entrada: Pick<Entrada, 'antes' | 'depois'>): Mudanca[] {
  const { antes, depois } = entrada;
  const campos = [...new Set([...Object.keys(depois ?? {}), ...Object.keys(antes ?? {})])];
  return campos
    .filter((campo) => antes === null || depois === null || !same(antes[campo], depois[campo]))
    .map((campo) => ({
      campo: CAMPO_LABELS[campo] ?? campo,
      antes: antes === null ? VAZIO : formatValor(campo, antes[campo]),
      depois: depois === null ? VAZIO : formatValor(campo, depois[campo]),
    }));
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

const QUANDO = new Intl.DateTimeFormat('pt-BR', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
  timeZone: FUSO_HORARIO,
});

/** An ISO instant as DD/MM/AAAA HH:mm:ss in the time zone the period filter uses. */
export function formatQuando(iso: string): string {
  return QUANDO.format(new Date(iso)).replace(',', '');
}
