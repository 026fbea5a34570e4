// What the 'Revisão' screen shows and sends, as plain functions the tests run: the filters as the API takes them,
// dates and flags as people read them, the fields of a record with their labels, pages, and the keyboard.
import type { FiltroRevisao, ItemRevisao } from '@novus/domain/api/revisao';
import type { Fluxo } from '@novus/domain/flows/keys';
import { FLOW_BY_KEY } from '@novus/domain/flows/registry';
import {
  ESTADO_LABELS,
  FLAG_CODIGOS,
  FLAG_LABELS,
  FLAG_UNIDADES,
  type EstadoRevisao,
  type Flag,
  type FlagCodigo,
} from '@novus/domain/revisao';

export const TODOS = '';

/** 'qualquer': any flag; 'nenhuma': none. */
export type FiltroFlag = FlagCodigo | 'qualquer' | 'nenhuma';

/** The filters as the screen holds them ('' leaves one out). */
export interface FiltrosRevisao {
  fluxo: Fluxo | '';
  tecnico: string;
  /** YYYY-MM-DD or ''. */
  dataInicio: string;
  dataFim: string;
  flag: FiltroFlag | '';
  estado: EstadoRevisao | '';
}

export const SEM_FILTROS: FiltrosRevisao = {
  fluxo: TODOS,
  tecnico: TODOS,
  dataInicio: TODOS,
  dataFim: TODOS,
  flag: TODOS,
  estado: TODOS,
};

/** The filter of the list and of 'Aprovar todos' (domain/src/api/revisao.ts), without what is left out. */
export function filtroApi(projeto: string, filtros: FiltrosRevisao): FiltroRevisao {
  const filtro: FiltroRevisao = { projeto };
  if (filtros.fluxo !== '') filtro.fluxo = filtros.fluxo;
  if (filtros.tecnico !== '') filtro.tecnico = filtros.tecnico;
  if (filtros.dataInicio !== '') filtro.dataInicio = filtros.dataInicio;
  if (filtros.dataFim !== '') filtro.dataFim = filtros.dataFim;
  if (filtros.flag !== '') filtro.flag = filtros.flag;
  if (filtros.estado !== '') filtro.estado = filtros.estado;
  return filtro;
}

/** What 'Sinalização' offers: either end first, then every flag by its label. */
export const FLAG_OPTIONS: readonly { value: FiltroFlag; label: string }[] = [
  { value: 'qualquer', label: 'Qualquer sinalização' },
  { value: 'nenhuma', label: 'Sem sinalização' },
  ...FLAG_CODIGOS.map((codigo) => ({ value: codigo, label: FLAG_LABELS[codigo] })),
];

const DATA_HORA = new Intl.DateTimeFormat('pt-BR', {
  timeZone: 'America/Sao_Paulo',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

export const SEM_VALOR = '—';

/** DD/MM/YYYY HH:mm in São Paulo's time, whatever the browser's zone. */
export function dataHoraTexto(epochMs: number | null): string {
  if (epochMs === null) return SEM_VALOR;
  const parts = Object.fromEntries(DATA_HORA.formatToParts(epochMs).map((part) => [part.type, part.value]));
  return `${parts.day}/${parts.month}/${parts.year} ${parts.hour}:${parts.minute}`;
}

const NUMERO = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 });

/** A flag's measure with its unit ('22,5 m', '3 fotos'), or '' when nothing was measured. */
export function flagValorTexto(flag: Flag): string {
  if (flag.valor === null) return '';
  const unidade = FLAG_UNIDADES[flag.codigo];
  const numero = NUMERO.format(flag.valor);
  return unidade === '' ? numero : `${numero} ${unidade}`;
}

/** A flag as its chip reads: 'Precisão do GPS acima do limite: 22,5 m'. */
export function flagTexto(flag: Flag): string {
  const valor = flagValorTexto(flag);
  return valor === '' ? FLAG_LABELS[flag.codigo] : `${FLAG_LABELS[flag.codigo]}: ${valor}`;
}

export const ESTADO_COLOR: Record<EstadoRevisao, 'default' | 'success' | 'error'> = {
  pendente: 'default',
  aprovado: 'success',
  reprovado: 'error',
};

export function estadoTexto(estado: EstadoRevisao): string {
  return ESTADO_LABELS[estado];
}

export interface CampoRegistro {
  /** The field's name in the record (what `campos` of a rejection names). */
  nome: string;
  label: string;
  valor: string;
}

/** A field's value as text: lists joined, yes/no in words, objects as JSON. */
function valorTexto(value: unknown): string {
  if (value === null || value === undefined || value === '') return SEM_VALOR;
  if (typeof value === 'boolean') return value ? 'Sim' : 'Não';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.length === 0 ? SEM_VALOR : value.map(valorTexto).join(', ');
  return JSON.stringify(value);
}

/**
 * The record's fields, labelled as the flow's exports name them (its declaration's columns); fields the
 * exports do not carry keep their own name. In the declaration's order, the others after.
 */
export function camposDoRegistro(fluxo: Fluxo, dados: Readonly<Record<string, unknown>>): CampoRegistro[] {
  const labels = new Map<string, string>();
  for (const coluna of FLOW_BY_KEY[fluxo].exports.colunas) {
    const { valor } = coluna;
    const nome = 'campo' in valor ? valor.campo : 'simNao' in valor ? valor.simNao : null;
    if (nome !== null && !labels.has(nome)) labels.set(nome, coluna.header);
  }
  const ordem = [...labels.keys()];
  const nomes = Object.keys(dados).sort((a, b) => {
    const ia = ordem.indexOf(a);
    const ib = ordem.indexOf(b);
    return (ia < 0 ? ordem.length : ia) - (ib < 0 ? ordem.length : ib);
  });
  return nomes.map((nome) => ({ nome, label: labels.get(nome) ?? nome, valor: valorTexto(dados[nome]) }));
}

export function paginas(total: number, porPagina: number): number {
  return Math.max(1, Math.ceil(total / porPagina));
}

export function paginaTexto(pagina: number, total: number, porPagina: number): string {
  return `Página ${pagina} de ${paginas(total, porPagina)}`;
}

export function aprovarTodosTexto(total: number): string {
  return total === 1 ? 'Aprovar 1 registro?' : `Aprovar ${total} registros?`;
}

export type Atalho = 'aprovar' | 'reprovar' | 'proximo' | 'anterior';

/** The shortcuts as the screen lists them. */
export const ATALHOS: readonly { teclas: string; acao: string }[] = [
  { teclas: 'A', acao: 'Aprovar' },
  { teclas: 'R', acao: 'Reprovar' },
  { teclas: 'N ou J', acao: 'Próximo' },
  { teclas: 'K', acao: 'Anterior' },
];

interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  target: EventTarget | null;
}

/** Whether typing there is writing text or choosing an option (a shortcut must not steal the letter). */
function isTextEntry(target: EventTarget | null): boolean {
  if (typeof HTMLElement === 'undefined' || !(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  // a select or menu takes letters to find an option
  if (target.closest('[role="combobox"], [role="listbox"], [role="menu"], [role="dialog"]') !== null)
    return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const type = (target.getAttribute('type') ?? 'text').toLowerCase();
  return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(type);
}

/** The shortcut a key press asks for: A, R, N or J, K, without modifiers, not while typing. */
export function atalhoDe(event: KeyLike): Atalho | null {
  if (event.ctrlKey || event.metaKey || event.altKey || isTextEntry(event.target)) return null;
  switch (event.key.toLowerCase()) {
    case 'a':
      return 'aprovar';
    case 'r':
      return 'reprovar';
    case 'n':
    case 'j':
      return 'proximo';
    case 'k':
      return 'anterior';
    default:
      return null;
  }
}

/** Where 'Próximo' / 'Anterior' go from `index` of a page of `count`: an index of it, or the next/previous page. */
export type Passo =
  { kind: 'linha'; index: number } | { kind: 'pagina'; pagina: number; ponta: 'primeira' | 'ultima' } | null;

export function passo(
  direcao: 1 | -1,
  index: number,
  count: number,
  pagina: number,
  totalPaginas: number,
): Passo {
  const next = index + direcao;
  if (next >= 0 && next < count) return { kind: 'linha', index: next };
  if (direcao === 1 && pagina < totalPaginas)
    return { kind: 'pagina', pagina: pagina + 1, ponta: 'primeira' };
  if (direcao === -1 && pagina > 1) return { kind: 'pagina', pagina: pagina - 1, ponta: 'ultima' };
  return null;
}

/** The technicians the filter offers: every one seen in the project's lists so far, by name. */
export function juntarTecnicos(
  conhecidos: readonly { id: string; nome: string }[],
  registros: readonly Pick<ItemRevisao, 'tecnico'>[],
): { id: string; nome: string }[] {
  const byId = new Map(conhecidos.map((tecnico) => [tecnico.id, tecnico]));
  for (const { tecnico } of registros)
    if (tecnico !== null && !byId.has(tecnico.id)) byId.set(tecnico.id, tecnico);
  return [...byId.values()].sort((a, b) => a.nome.localeCompare(b.nome, 'pt-BR'));
}
