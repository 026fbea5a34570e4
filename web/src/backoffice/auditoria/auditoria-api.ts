// GET /api/auditoria: one page of the audit log, newest first, filtered by user and by days (both inclusive).
import { z } from 'zod';
import type { ApiClient } from '../../api/client';

const valoresSchema = z.record(z.string(), z.unknown()).nullable();

const entradaSchema = z.object({
  _id: z.string(),
  em: z.string(),
  usuario: z.object({ _id: z.string().nullable(), nome: z.string() }),
  entidade: z.string(),
  entidadeId: z.string(),
  acao: z.string(),
  antes: valoresSchema,
  depois: valoresSchema,
});
export type Entrada = z.infer<typeof entradaSchema>;

const paginaSchema = z.object({
  total: z.number(),
  pagina: z.number(),
  tamanho: z.number(),
  entradas: z.array(entradaSchema),
});
export type PaginaAuditoria = z.infer<typeof paginaSchema>;

export interface FiltroAuditoria {
  /** A user's id; '' for everyone. */
  usuario: string;
  /** YYYY-MM-DD or '' (no bound). */
  inicio: string;
  fim: string;
  pagina: number;
  tamanho: number;
}

export function listAuditoria(api: ApiClient, filtro: FiltroAuditoria): Promise<PaginaAuditoria> {
  const params = new URLSearchParams({
    usuario: filtro.usuario,
    inicio: filtro.inicio,
    fim: filtro.fim,
    pagina: String(filtro.pagina),
    tamanho: String(filtro.tamanho),
  });
  return api.json('GET', `/api/auditoria?${params.toString()}`, paginaSchema);
}
