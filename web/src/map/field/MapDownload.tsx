// 'Download do Mapa': the project's zones into the tile cache, with 'Downloading: x de y': every zoom of the
// project's basemap package up to 19, said beforehand in tiles and megabytes, or else the server's zoom-19 tiles.
import { useMemo, useState } from 'react';
import { Alert, Button, CircularProgress, Stack, Typography } from '@mui/material';
import type { TileConfig } from '@novus/domain/api/sistema';
import type { LocalProjeto } from '../../offline/db';
import { baixarMapa } from '../../offline/mapas';
import { planProjeto, TILE_TEXTS } from '../../offline/tiles';

export function MapDownload({ projeto, tiles }: { projeto: LocalProjeto; tiles: TileConfig | null }) {
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<string | null>(null);
  const [message, setMessage] = useState<{ severity: 'error' | 'success' | 'warning'; text: string } | null>(
    null,
  );
  const download = tiles?.download ?? null;
  const { plan, source } = useMemo(() => planProjeto(projeto, download), [projeto, download]);

  const start = async () => {
    setMessage(null);
    if (plan.error !== undefined || source === null) {
      setMessage({ severity: 'error', text: plan.error ?? TILE_TEXTS.notConfigured });
      return;
    }
    if (!navigator.onLine) {
      setMessage({ severity: 'error', text: TILE_TEXTS.offline });
      return;
    }
    setBusy(true);
    try {
      const result = await baixarMapa(projeto, plan, source, (done, total) =>
        setProgress(TILE_TEXTS.progress(done, total)),
      );
      // A package's failures are a cut (its 404s are not failures): pressing again resumes.
      const failed = source.pacote ? TILE_TEXTS.interrupted : TILE_TEXTS.partial;
      setMessage(
        result.failed === 0
          ? { severity: 'success', text: TILE_TEXTS.done(result.done) }
          : { severity: 'warning', text: failed(result.failed, result.done) },
      );
    } catch (error) {
      setMessage({ severity: 'error', text: error instanceof Error ? error.message : String(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack spacing={1}>
      {source?.pacote && plan.error === undefined && (
        <Typography variant="body2" data-testid="estimativa-mapa">
          {TILE_TEXTS.estimate(plan.tiles.length, plan.bytes ?? 0)}
        </Typography>
      )}
      <Button
        variant="outlined"
        onClick={() => void start()}
        disabled={busy}
        startIcon={busy ? <CircularProgress size={18} aria-hidden /> : undefined}
      >
        Download do Mapa
      </Button>
      {progress !== null && (
        <Typography role="status" variant="body2">
          {progress}
        </Typography>
      )}
      {message && <Alert severity={message.severity}>{message.text}</Alert>}
    </Stack>
  );
}
