// 'Exportar pendentes': the file a phone writes with every record it has not sent yet, and the back office
// imports through the same upload path as the sync. A zip holding `pendentes.json` (below) and the photos.
import { FLUXOS } from './flows/keys.ts';
import { z } from './zod.ts';

export const PENDENTES_MANIFEST = 'pendentes.json';
export const PENDENTES_FORMATO = 'novus-pendentes';

/** Where a record's photo sits in the zip: `fotos/{registro}/{slot}.{ext}`. */
export function pendenteFotoPath(id: string, slot: number, mediaType: string): string {
  const ext = mediaType === 'image/png' ? 'png' : mediaType === 'image/webp' ? 'webp' : 'jpg';
  return `fotos/${id}/${slot}.${ext}`;
}

export const pendenteSchema = z.object({
  fluxo: z.enum(FLUXOS, { error: 'Fluxo desconhecido.' }),
  /** The multipart fields exactly as the sync sends them (web/src/offline/sync.ts uploadFields). */
  campos: z.record(z.string(), z.string()),
  fotos: z.array(z.object({ slot: z.number().int().min(0), arquivo: z.string().min(1) })),
});
export type Pendente = z.infer<typeof pendenteSchema>;

export const pendentesManifestSchema = z.object({
  formato: z.literal(PENDENTES_FORMATO, { error: 'O arquivo não é uma exportação de pendentes do Novus.' }),
  versao: z.literal(1, { error: 'Versão de exportação de pendentes não suportada.' }),
  exportadoEm: z.number(),
  /** Who collected the records on the phone: the login they signed in with, and their name. */
  tecnico: z.object({ login: z.string().optional(), nome: z.string() }),
  registros: z.array(pendenteSchema),
});
export type PendentesManifest = z.infer<typeof pendentesManifestSchema>;
