// The supervisor map's call that is more than `api.call` (domain/src/api/mapa.ts declares the endpoints): the live
// stream of points as Server-Sent Events.
import { pontoEventoSchema, watchMapa } from '@novus/domain/api/mapa';
import { pathOf } from '@novus/domain/api/path';
import type { PontoEvento } from '@novus/domain/mapa/api';

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
