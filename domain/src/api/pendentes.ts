// POST /api/pendentes/importar: a phone's 'Exportar pendentes' zip, imported by an administrador through the sync's
// upload path (the file's records, each with its photos, as if the phone had synced them).
import { z } from '../zod.ts';
import { endpoint } from './contract.ts';

export const importSummarySchema = z.object({
  tecnico: z.string(),
  registros: z.number().int(),
  criados: z.number().int(),
  coletados: z.number().int(),
  jaExistentes: z.number().int(),
  concorrentes: z.number().int(),
  fotos: z.number().int(),
  recusados: z.array(z.object({ id: z.string().nullable(), fluxo: z.string(), motivo: z.string() })),
});
export const importarPendentes = endpoint({
  method: 'POST',
  path: '/api/pendentes/importar',
  tag: 'registros',
  summary: 'Importa o arquivo de pendências exportado por um aparelho.',
  allow: ['administrador'],
  consumes: ['multipart/form-data'],
  ok: {
    status: 200,
    description: 'O resultado da importação, registro a registro.',
    answer: importSummarySchema,
  },
  errors: [413, 415],
});

/** What the import answers: how many records it created, collected, found already there, kept beside, refused. */
export type ImportSummary = z.infer<typeof importSummarySchema>;
