// 'Download do Mapa': the project's zones at zoom 19 into the tile cache, with 'Downloading: x de y'.
import { useState } from 'react';
import { Alert, Button, CircularProgress, Stack, Typography } from '@mui/material';
import type { TileConfig } from '@novus/domain/api/sistema';
import type { LocalProjeto } from '../../offline/db';
import { downloadTiles, planDownload, TILE_TEXTS, tileUrl } from '../../offline/tiles';

export function MapDownload({ projeto, tiles }: { projeto: LocalProjeto; tiles: TileConfig | null }) {
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<string | null>(null);
  const [message, setMessage] = useState<{ severity: 'error' | 'success' | 'warning'; text: string } | null>(
    null,
  );

  const start = async () => {
    setMessage(null);
    const plan = planDownload(projeto.zonas, tiles?.download ?? null, projeto.limiteDownload);
    if (plan.error !== undefined) {
      setMessage({ severity: 'error', text: plan.error });
      return;
    }
    if (!navigator.onLine) {
      setMessage({ severity: 'error', text: TILE_TEXTS.offline });
      return;
    }
    const template = tiles?.download ?? '';
    setBusy(true);
    try {
      const result = await downloadTiles(
        plan.tiles.map((tile) => tileUrl(template, tile)),
        (done, total) => setProgress(TILE_TEXTS.progress(done, total)),
      );
      setMessage(
        result.failed === 0
          ? { severity: 'success', text: TILE_TEXTS.done(result.done) }
          : { severity: 'warning', text: TILE_TEXTS.partial(result.failed, result.done) },
      );
    } catch (error) {
      setMessage({ severity: 'error', text: error instanceof Error ? error.message : String(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack spacing={1}>
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
