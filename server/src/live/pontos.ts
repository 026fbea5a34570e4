// Points stored by any server process reach the open supervisor maps of their project (DESIGN.md 'Reading a
// lot'): NOTIFY on one channel, one LISTEN per process, handed out in-process by project.
import type { PontoEvento } from '@novus/domain/mapa/api';
import type { Database } from '../db/database.ts';

const CHANNEL = 'novus_pontos';

/** What travels on the channel: the map's event plus what access needs (which project and zone). */
export interface PontoNotificado extends PontoEvento {
  projeto: string;
  zona: string | null;
}

type Handler = (ponto: PontoNotificado) => void;

export class PontosLive {
  private readonly handlers = new Map<string, Set<Handler>>();
  private listening: Promise<() => Promise<void>> | null = null;

  constructor(private readonly db: Database) {}

  /** Calls `handler` with each point stored in the project from now on; the returned function stops. */
  async subscribe(projeto: string, handler: Handler): Promise<() => void> {
    const set = this.handlers.get(projeto) ?? new Set<Handler>();
    set.add(handler);
    this.handlers.set(projeto, set);
    // A failed LISTEN (the database is away) is not kept: the next subscriber tries again.
    this.listening ??= this.db
      .listen(CHANNEL, (payload) => this.dispatch(payload))
      .catch((error: unknown) => {
        this.listening = null;
        throw error;
      });
    try {
      await this.listening;
    } catch (error) {
      set.delete(handler);
      if (set.size === 0) this.handlers.delete(projeto);
      throw error;
    }
    return () => {
      set.delete(handler);
      if (set.size === 0) this.handlers.delete(projeto);
    };
  }

  async publish(ponto: PontoNotificado): Promise<void> {
    await this.db.notify(CHANNEL, JSON.stringify(ponto));
  }

  async close(): Promise<void> {
    this.handlers.clear();
    const stop = await this.listening?.catch(() => undefined);
    this.listening = null;
    await stop?.().catch(() => undefined);
  }

  private dispatch(payload: string) {
    let ponto: PontoNotificado;
    try {
      ponto = JSON.parse(payload) as PontoNotificado; // written by publish() above
    } catch {
      return;
    }
    for (const handler of this.handlers.get(ponto.projeto) ?? []) handler(ponto);
  }
}
