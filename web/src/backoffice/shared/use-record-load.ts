// The load of an edit screen (Alterar Cliente/Projeto/Usuário): fetch the record once per id, hand it to the
// form, and on failure log it and show the server's words or the screen's fallback (SPEC.md section 8).
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useBackofficeApi } from '../backoffice-api';
import { serverMessageOr } from '../server-message';
import type { Notice } from './notice';

export interface RecordLoad<T> {
  /** Fetches the record; called only when there is an id (add screens have none). */
  fetch: (id: string) => Promise<T>;
  loaded: (record: T) => void;
  /** What goes to the log, and the text shown when the server sent no message of its own. */
  failure: { log: string; text: string };
  onNotice: (notice: Notice) => void;
}

/** Loads the record of an edit screen; answers whether it is still loading. */
export function useRecordLoad<T>(id: string | undefined, load: RecordLoad<T>): boolean {
  const { log } = useBackofficeApi();
  const [loading, setLoading] = useState(id !== undefined);
  // The callbacks change with every render; the load must run once per id.
  const latest = useRef(load);
  useLayoutEffect(() => {
    latest.current = load;
  });

  useEffect(() => {
    if (id === undefined) return;
    let active = true;
    latest.current.fetch(id).then(
      (record) => {
        if (!active) return;
        latest.current.loaded(record);
        setLoading(false);
      },
      (error: unknown) => {
        if (!active) return;
        log(latest.current.failure.log, error);
        latest.current.onNotice({
          severity: 'error',
          text: serverMessageOr(error, latest.current.failure.text),
        });
        setLoading(false);
      },
    );
    return () => {
      active = false;
    };
  }, [id, log]);

  return loading;
}
