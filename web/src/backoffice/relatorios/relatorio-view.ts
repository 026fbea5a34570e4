// What the Relatórios screen derives from the report answers: which flow columns, the chart's series, and how
// precision and photo completeness read (SPEC.md section 2 'Reports screen').
import type { Produtividade } from '@novus/domain/export/api';
import { FLUXOS, type Fluxo } from '@novus/domain/flows/keys';

/** The flows with records in any row, in the registry's order: one table column each. */
export function fluxosComContagem(rows: readonly { contagens: Partial<Record<Fluxo, number>> }[]): Fluxo[] {
  return FLUXOS.filter((fluxo) => rows.some((row) => (row.contagens[fluxo] ?? 0) > 0));
}

const PRECISAO = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const PERCENT = new Intl.NumberFormat('pt-BR', { style: 'percent', maximumFractionDigits: 0 });

/** Metres with one decimal ('3,2'), '—' when no record of the day carried an accuracy. */
export function formatPrecisao(metros: number | null): string {
  return metros === null ? '—' : PRECISAO.format(metros);
}

/** A share 0..1 as a percent ('85%'). */
export function formatPercent(share: number): string {
  return PERCENT.format(share);
}

export interface Serie {
  tecnico: { id: string; nome: string };
  /** Records per day, aligned with `ProdutividadeSeries.dias`. */
  valores: number[];
}

export interface ProdutividadeSeries {
  /** YYYY-MM-DD ascending: the days with records in any row. */
  dias: string[];
  /** One series per technician, by name. */
  series: Serie[];
  /** The tallest day, all technicians together (the chart's scale). */
  maximo: number;
}

const COLLATOR = new Intl.Collator('pt-BR', { sensitivity: 'base', numeric: true });

/** Records per day per technician, for the stacked bar chart. */
export function produtividadeSeries(rows: readonly Produtividade[]): ProdutividadeSeries {
  const dias = [...new Set(rows.map((row) => row.data))].sort();
  const indice = new Map(dias.map((dia, i) => [dia, i]));
  const porTecnico = new Map<string, Serie>();
  for (const row of rows) {
    let serie = porTecnico.get(row.tecnico.id);
    if (serie === undefined) {
      serie = { tecnico: row.tecnico, valores: dias.map(() => 0) };
      porTecnico.set(row.tecnico.id, serie);
    }
    const i = indice.get(row.data) ?? 0; // every row's day is in `dias`
    serie.valores[i] += row.total;
  }
  const series = [...porTecnico.values()].sort((a, b) => COLLATOR.compare(a.tecnico.nome, b.tecnico.nome));
  const totais = dias.map((_, i) => series.reduce((sum, serie) => sum + serie.valores[i], 0));
  return { dias, series, maximo: Math.max(0, ...totais) };
}
