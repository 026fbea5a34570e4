// What the device's database asks of the technician (issue 25): close the other tabs when an old one blocks this
// version's upgrade; reload this one when a newer version, opened in another tab, took the database over. The home
// reads the database without Dexie (offline/local-reader.ts), so both connections are heard.
import { useEffect, useState, useSyncExternalStore } from 'react';
import { Alert, Button } from '@mui/material';
import type { NovusDatabase } from '../offline/db';
import { DATABASE_TEXTS, type DatabaseState } from '../offline/db-state';
import { useLoadedDevice, useShell } from '../shared/services';

export function DatabaseNotice() {
  // A tab that has not opened the device's database (the login page) has no upgrade to be blocked.
  const device = useLoadedDevice();
  const [deviceState, setState] = useState<DatabaseState>('fechado');
  const { reader } = useShell();
  const readerState = useSyncExternalStore(reader.subscribe, reader.getState);
  // the reader never upgrades, so it is never blocked: it only tells of a newer version taking over
  const state = readerState === 'substituido' ? readerState : deviceState;

  useEffect(() => {
    let unsubscribe: (() => void) | undefined;
    let active = true;
    void device.then(({ localStore }) => {
      if (!active) return;
      const db: NovusDatabase = localStore.db;
      setState(db.getState());
      unsubscribe = db.subscribe(() => setState(db.getState()));
    });
    return () => {
      active = false;
      unsubscribe?.();
    };
  }, [device]);

  if (state !== 'bloqueado' && state !== 'substituido') return null;
  return (
    <Alert
      severity="warning"
      variant="standard"
      role="alert"
      data-testid="aviso-banco-local"
      // Above every screen, where the technician looks first; dark text on the light warning shade reads at 8:1.
      sx={{
        position: 'fixed',
        top: 8,
        left: 8,
        right: 8,
        zIndex: 'snackbar',
        border: 1,
        borderColor: 'warning.main',
        boxShadow: 6,
      }}
      action={
        state === 'substituido' ? (
          <Button color="inherit" size="small" onClick={() => window.location.reload()}>
            Recarregar
          </Button>
        ) : undefined
      }
    >
      {DATABASE_TEXTS[state]}
    </Alert>
  );
}
