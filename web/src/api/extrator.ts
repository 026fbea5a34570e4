// The Extrator's and the Relatórios' downloads are plain links, never fetched: the files can be hundreds of MB and
// the browser streams them to disk with the session cookie. Their calls are declared in domain/src/api/extrator.ts
// and relatorios.ts.
import { getRelatorioArquivo } from '@novus/domain/api/relatorios';
import type { Periodo } from '@novus/domain/export/periodo';
import { urlOf } from './client';

/** The productivity table as a CSV file, for a download link. */
export function produtividadeCsvUrl(projetoId: string, periodo: Periodo): string {
  return urlOf(getRelatorioArquivo, {
    params: { projeto: projetoId, arquivo: 'produtividade.csv' },
    query: periodo,
  });
}
