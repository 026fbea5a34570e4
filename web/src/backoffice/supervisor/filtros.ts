// The supervisor's filters as the screen holds them, what the API takes, and whether a live point passes them.
import type { PontoEvento } from '@novus/domain/mapa/api';

export interface Tecnico {
  id: string;
  nome: string;
}

export interface FiltrosEscolhidos {
  /** null: 'Todos'. The name is kept so the select can show the choice whatever the next answer lists. */
  tecnico: Tecnico | null;
  /** YYYY-MM-DD or ''. */
  dataInicio: string;
  dataFim: string;
}

/** The filters as the map and its statistics take them (domain/src/api/mapa.ts); '' leaves one out. */
export interface MapaFiltros {
  /** A technician's id, as MapaProjeto.tecnicos lists them. */
  tecnico: string;
  /** YYYY-MM-DD (local days, inclusive). */
  dataInicio: string;
  dataFim: string;
}

export const TODOS_FILTROS: FiltrosEscolhidos = { tecnico: null, dataInicio: '', dataFim: '' };

export function mapaFiltros(filtros: FiltrosEscolhidos): MapaFiltros {
  return { tecnico: filtros.tecnico?.id ?? '', dataInicio: filtros.dataInicio, dataFim: filtros.dataFim };
}

/** The local day of an instant, YYYY-MM-DD (the filters' days are local, like the server's). */
export function diaLocal(epochMs: number): string {
  const date = new Date(epochMs);
  const month = String(date.getMonth() + 1).padStart(2, '0');
  const day = String(date.getDate()).padStart(2, '0');
  return `${date.getFullYear()}-${month}-${day}`;
}

/**
 * Whether a live point new to the map belongs under the filters: by its technician (the event may name them by
 * id or by name) and by its day. A point the map already shows is updated whatever the filters say.
 */
export function eventoPassa(evento: PontoEvento, filtros: FiltrosEscolhidos): boolean {
  const { tecnico } = filtros;
  if (tecnico !== null && evento.tecnico !== tecnico.id && evento.tecnico !== tecnico.nome) return false;
  if (filtros.dataInicio === '' && filtros.dataFim === '') return true;
  if (evento.dataHora === null) return false;
  const dia = diaLocal(evento.dataHora);
  if (filtros.dataInicio !== '' && dia < filtros.dataInicio) return false;
  if (filtros.dataFim !== '' && dia > filtros.dataFim) return false;
  return true;
}

/** The technicians the select offers: the answer's, plus the chosen one if the answer left them out. */
export function tecnicoOptions(listed: readonly Tecnico[], chosen: Tecnico | null): Tecnico[] {
  if (chosen === null || listed.some((tecnico) => tecnico.id === chosen.id)) return [...listed];
  return [...listed, chosen];
}
