// On an iPhone or iPad outside the home screen, once: add Novus to the home screen, or Safari may erase the records
// waiting on the phone after 7 days without a visit (issue 25). Known on the first paint (the user agent and
// localStorage), so it moves nothing when the home draws.
import { useState } from 'react';
import { Alert, Button, Stack } from '@mui/material';
import {
  dismissInstallHint,
  INSTALL_HINT_TEXTS,
  readBrowserTraits,
  shouldShowInstallHint,
} from '../offline/install-hint';

export function DicaInstalar() {
  const [visible, setVisible] = useState(() =>
    shouldShowInstallHint(readBrowserTraits(), window.localStorage),
  );
  if (!visible) return null;
  return (
    // a standing note, not news: role 'note' keeps screen readers from announcing it on every visit
    <Alert severity="info" role="note" data-testid="dica-instalar">
      <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
        <span>{INSTALL_HINT_TEXTS.hint}</span>
        <Button
          variant="outlined"
          color="inherit"
          onClick={() => {
            dismissInstallHint(window.localStorage);
            setVisible(false);
          }}
        >
          {INSTALL_HINT_TEXTS.dismiss}
        </Button>
      </Stack>
    </Alert>
  );
}
