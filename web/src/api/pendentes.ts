// POST /api/pendentes/importar: a phone's 'Exportar pendentes' zip, imported through the sync's upload path.
import { z } from 'zod';
import type { ApiClient } from './client';

export const importSummarySchema = z.object({
  tecnico: z.string(),
  registros: z.number(),
  criados: z.number(),
  coletados: z.number(),
  jaExistentes: z.number(),
  concorrentes: z.number(),
  fotos: z.number(),
  recusados: z.array(z.object({ id: z.string().nullable(), fluxo: z.string(), motivo: z.string() })),
});
export type ImportSummary = z.infer<typeof importSummarySchema>;

/** `tecnico`: the collector's login, when the file does not say (or says wrong). */
export function importPendentes(api: ApiClient, arquivo: File, tecnico: string): Promise<ImportSummary> {
  const form = new FormData();
  if (tecnico.trim() !== '') form.append('tecnico', tecnico.trim());
  form.append('arquivo', arquivo);
  return api.json('POST', '/api/pendentes/importar', importSummarySchema, form);
}
