// The review state and the flags in the exports (issue 24): `?revisao=1` appends their columns after the spec's
// (SPEC.md 9's headers stay first and unchanged), `?estado=` and `?flag=` keep only some records. Absent, a file is
// byte for byte what it was before.
import { ESTADOS_REVISAO, FLAG_CODIGOS, FLAG_LABELS, FLAG_UNIDADES, type Flag } from '../revisao.ts';
import { z } from '../zod.ts';
import type { Coluna } from './columns.ts';

/** Records with any flag, or with none, besides one flag by its code. */
export const FLAG_FILTROS = [...FLAG_CODIGOS, 'qualquer', 'nenhuma'] as const;
export type FlagFiltro = (typeof FLAG_FILTROS)[number];

/** The words of the 'Sinalização' choices: a flag's label, or any / none. */
export const FLAG_FILTRO_LABELS: Record<FlagFiltro, string> = {
  ...FLAG_LABELS,
  qualquer: 'Qualquer sinalização',
  nenhuma: 'Sem sinalização',
};

export const revisaoExportSchema = z.object({
  revisao: z
    .enum(['0', '1'], { error: 'Parâmetro revisao inválido: use 1 para incluir revisão e sinalizações.' })
    .optional()
    .describe('1: acrescenta as colunas Revisão, Versão e Sinalizações depois das colunas do arquivo.'),
  estado: z
    .enum(ESTADOS_REVISAO, { error: 'Estado da revisão inválido: use pendente, aprovado ou reprovado.' })
    .optional()
    .describe('Só os registros neste estado da revisão.'),
  flag: z
    .enum(FLAG_FILTROS, {
      error: `Sinalização inválida: use ${FLAG_FILTROS.join(', ')}.`,
    })
    .optional()
    .describe('Só os registros com esta sinalização (qualquer: com alguma; nenhuma: sem sinalização).'),
});
export type RevisaoExport = z.infer<typeof revisaoExportSchema>;

/** Which records by their review: a state, a flag, any flag or none. */
export interface FiltroRevisao {
  estado?: RevisaoExport['estado'];
  flag?: FlagFiltro;
}

export const comRevisao = (query: RevisaoExport): boolean => query.revisao === '1';

/** The review's columns, appended after a file's own when asked for. */
export const COLUNAS_REVISAO: readonly Coluna[] = [
  { header: 'Revisão', valor: { registro: 'revisao' } },
  { header: 'Versão', valor: { registro: 'versao' } },
  { header: 'Sinalizações', valor: { registro: 'sinalizacoes' } },
];

/** The separator between a record's flags in 'Sinalizações'. */
export const SEPARADOR_SINALIZACOES = '; ';

/** A flag as people read it: its label and, when something was measured, the value ('Possível duplicata (1,2 m)'). */
export function flagText({ codigo, valor }: Flag): string {
  if (valor === null) return FLAG_LABELS[codigo];
  // One decimal at most, as the review screen shows it; the comma of pt-BR (this is text, not a number column).
  const numero = (Math.round(valor * 10) / 10).toString().replace('.', ',');
  const unidade = FLAG_UNIDADES[codigo];
  return `${FLAG_LABELS[codigo]} (${unidade ? `${numero} ${unidade}` : numero})`;
}

/** The query string of a review choice, in a fixed order; empty when nothing is asked. */
export function revisaoParams(query: RevisaoExport): [string, string][] {
  const params: [string, string][] = [];
  if (query.revisao === '1') params.push(['revisao', '1']);
  if (query.estado) params.push(['estado', query.estado]);
  if (query.flag) params.push(['flag', query.flag]);
  return params;
}
