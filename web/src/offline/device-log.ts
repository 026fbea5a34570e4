// Failures on the technician's side (a local save, read or delete that failed; a sync that failed) for
// POST /api/logger (SPEC.md 8: "Technician-side failed saves or fetches: only logged"). The screen still says what
// went wrong; the log is what support reads. A phone offline keeps each entry here (localStorage, not IndexedDB:
// the failure may be IndexedDB's own) until it can send it: at once when the network is there, else with the next
// sync.

export interface DeviceFailure {
  /** What failed, as a tag support can search for ('FALHA AO GRAVAR NO APARELHO: Poste'). */
  message: string;
  extras: {
    tecnico: string;
    erro: string;
    details?: unknown;
    /** The screen it happened on. */
    url?: string;
    /** When it happened on the device (epoch ms): an entry may reach the server days later. */
    em: number;
  };
}

/** Sends one entry to the server; rejects when it did not arrive. */
export type SendLog = (entry: {
  severity: 'ERROR';
  message: string;
  extras: DeviceFailure['extras'];
}) => Promise<void>;

export const DEVICE_LOG_KEY = 'novus.logsPendentes';

/** The log's message for a failed operation on the device's records of a flow ('Poste', 'Uso Mútuo / IP'). */
export const DEVICE_FAILURE = {
  save: (record: string) => `FALHA AO GRAVAR NO APARELHO: ${record}`,
  read: (record: string) => `FALHA AO LER DO APARELHO: ${record}`,
  remove: (record: string) => `FALHA AO EXCLUIR DO APARELHO: ${record}`,
} as const;

/** Entries kept while offline; past this the oldest go first (a loop that fails every second must not fill storage). */
export const DEVICE_LOG_LIMIT = 200;

export class DeviceLog {
  /** One send at a time, so an entry is never sent twice by a report and a flush that overlap. */
  private sending: Promise<void> = Promise.resolve();

  constructor(
    private readonly storage: Storage,
    private readonly send: SendLog,
    private readonly now: () => number = Date.now,
  ) {}

  /** Keeps the failure and tries to send what is kept; never throws (logging must not cause another failure). */
  async report(failure: {
    message: string;
    tecnico?: string | null;
    error: unknown;
    url?: string;
  }): Promise<void> {
    const entry: DeviceFailure = {
      message: failure.message,
      extras: {
        tecnico: failure.tecnico ?? '',
        erro: errorText(failure.error),
        ...(failure.error instanceof Error
          ? { details: { name: failure.error.name, stack: failure.error.stack } }
          : {}),
        ...(failure.url === undefined ? {} : { url: failure.url }),
        em: this.now(),
      },
    };
    try {
      this.write([...this.pending(), entry].slice(-DEVICE_LOG_LIMIT));
    } catch {
      // storage itself refused: send this one now or never
      await this.send({ severity: 'ERROR', ...entry }).catch(() => undefined);
      return;
    }
    await this.flush();
  }

  /** Sends the kept entries, oldest first, until one does not arrive (offline: they wait for the next time). */
  flush(): Promise<void> {
    this.sending = this.sending.then(async () => {
      for (;;) {
        const [first] = this.pending();
        if (first === undefined) return;
        try {
          await this.send({ severity: 'ERROR', ...first });
        } catch {
          return;
        }
        // drop the one sent (others may have been added meanwhile, after it)
        const rest = this.pending();
        this.write(rest[0] !== undefined && sameEntry(rest[0], first) ? rest.slice(1) : rest);
      }
    });
    return this.sending;
  }

  /** What waits to be sent. */
  pending(): DeviceFailure[] {
    try {
      const value: unknown = JSON.parse(this.storage.getItem(DEVICE_LOG_KEY) ?? '[]');
      return Array.isArray(value) ? value.filter(isFailure) : [];
    } catch {
      return [];
    }
  }

  private write(entries: DeviceFailure[]): void {
    if (entries.length === 0) this.storage.removeItem(DEVICE_LOG_KEY);
    else this.storage.setItem(DEVICE_LOG_KEY, JSON.stringify(entries));
  }
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : (JSON.stringify(error) ?? String(error));
}

function isFailure(value: unknown): value is DeviceFailure {
  if (typeof value !== 'object' || value === null) return false;
  const { message, extras } = value as { message?: unknown; extras?: unknown };
  return typeof message === 'string' && typeof extras === 'object' && extras !== null;
}

const sameEntry = (a: DeviceFailure, b: DeviceFailure) =>
  a.message === b.message && a.extras.em === b.extras.em && a.extras.erro === b.extras.erro;
