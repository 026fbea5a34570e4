// POST /api/logger: failures the user is told to "see in the log" end up on the server.
import type { ApiClient } from './client';

export interface LogEntry {
  message: string;
  tecnico?: string;
  details?: unknown;
}

/** Never throws: logging a failure must not cause another one. */
export async function logError(api: ApiClient, entry: LogEntry): Promise<void> {
  const extras = { tecnico: entry.tecnico ?? '', details: describe(entry.details), url: location.pathname };
  try {
    await api.call('POST', '/api/logger', { severity: 'ERROR', message: entry.message, extras });
  } catch {
    // offline or server down: nothing more we can do from here
  }
}

function describe(details: unknown): unknown {
  if (details instanceof Error) return { name: details.name, message: details.message, stack: details.stack };
  return details;
}
