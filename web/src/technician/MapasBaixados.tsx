// The storage panel's maps: each project's downloaded map with its size, and a button that removes it.
import { useState } from 'react';
import { Alert, Button, Stack, Typography } from '@mui/material';
import type { MapaBaixado } from '../offline/mapas';
import { MAPA_TEXTS, mapasTotalText, mapaText } from '../offline/storage-panel';
import { useShell } from '../shared/services';

export function MapasBaixados({ mapas, onRemoved }: { mapas: MapaBaixado[] | null; onRemoved: () => void }) {
  const { reader } = useShell();
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);

  const remove = async (mapa: MapaBaixado) => {
    if (!window.confirm(MAPA_TEXTS.confirm(mapa.nome))) return;
    setBusy(mapa.projeto);
    try {
      const { removeMapaBaixado } = await import('./home-device');
      await removeMapaBaixado(reader, mapa.projeto);
      setMessage({ text: MAPA_TEXTS.removed(mapa.nome), error: false });
      onRemoved();
    } catch (error) {
      setMessage({
        text: `${MAPA_TEXTS.failed}: ${error instanceof Error ? error.message : String(error)}`,
        error: true,
      });
    } finally {
      setBusy(null);
    }
  };

  return (
    <Stack
      spacing={0.5}
      component="section"
      aria-labelledby="mapas-baixados-titulo"
      data-testid="mapas-baixados"
    >
      <Typography id="mapas-baixados-titulo" component="h3" variant="subtitle2">
        {MAPA_TEXTS.title}
      </Typography>
      {mapas === null ? (
        // not read yet: a line in its place, so the list's arrival moves nothing below
        <Typography variant="body2">…</Typography>
      ) : mapas.length === 0 ? (
        <Typography variant="body2">{MAPA_TEXTS.none}</Typography>
      ) : (
        <>
          {mapas.map((mapa) => (
            <Stack key={mapa.projeto} direction="row" spacing={1} alignItems="center">
              <Typography variant="body2" sx={{ flex: 1 }} data-testid="mapa-baixado">
                {mapaText(mapa)}
              </Typography>
              <Button
                size="small"
                color="error"
                disabled={busy !== null}
                aria-label={MAPA_TEXTS.remove(mapa.nome)}
                onClick={() => void remove(mapa)}
                sx={{ minHeight: 44 }}
              >
                Remover
              </Button>
            </Stack>
          ))}
          {mapas.length > 1 && <Typography variant="body2">{mapasTotalText(mapas)}</Typography>}
        </>
      )}
      {message !== null && (
        <Alert severity={message.error ? 'error' : 'info'} role="status" data-testid="status-mapas">
          {message.text}
        </Alert>
      )}
    </Stack>
  );
}
