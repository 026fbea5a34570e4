// The supervisor map's calls that are more than `api.call` (domain/src/api/mapa.ts declares the endpoints): the live
// stream of points as Server-Sent Events, and one record for a popup.
import { z } from 'zod';
import { pontoEventoSchema, watchMapa } from '@novus/domain/api/mapa';
import { pathOf } from '@novus/domain/api/path';
import type { PontoEvento } from '@novus/domain/mapa/api';
import type { ApiClient } from './client';

/** One collection of a point: who and when (the rest of the flow's fields come along, unread here). */
const coletaSchema = z.looseObject({
  _id: z.string(),
  tecnico: z.string().nullable().optional(),
  dataHora: z.number().nullable().optional(),
});

/** GET /api/registro/{id}: the flow's fields at the top level, plus who, when, photos and competing collections. */
const registroSchema = z.looseObject({
  _id: z.string(),
  tecnico: z.string().nullable().optional(),
  dataHora: z.number().nullable().optional(),
  fotos: z.array(z.string()).optional(),
  conflito: z.boolean().optional(),
  coletas: z.array(coletaSchema).optional(),
});
export type RegistroMapa = z.infer<typeof registroSchema>;
export type ColetaMapa = z.infer<typeof coletaSchema>;

export function getRegistroMapa(api: ApiClient, id: string): Promise<RegistroMapa> {
  return api.json('GET', `/api/registro/${encodeURIComponent(id)}`, registroSchema);
}

/**
 * Listens to the project's `ponto` events until the returned function is called. EventSource reconnects by
 * itself after a network failure; events sent while it was away are not replayed (reloading the screen shows them).
 */
export function watchPontos(projetoId: string, onPonto: (evento: PontoEvento) => void): () => void {
  const source = new EventSource(pathOf(watchMapa, { id: projetoId }));
  const listener = (event: MessageEvent<string>) => {
    let data: unknown;
    try {
      data = JSON.parse(event.data);
    } catch {
      return;
    }
    const parsed = pontoEventoSchema.safeParse(data);
    if (parsed.success) onPonto(parsed.data);
  };
  source.addEventListener('ponto', listener);
  return () => {
    source.removeEventListener('ponto', listener);
    source.close();
  };
}
