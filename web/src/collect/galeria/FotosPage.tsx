// /{flow}/:id/fotos for every flow of the registry (SPEC.md section 2): photos full width, from the device's
// Blobs before sync or the server's URLs after; the flow's own text when there are none.
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Alert, Box, Button, LinearProgress, Stack, Typography } from '@mui/material';
import type { FlowDefinition } from '@novus/domain/flows/flow';
import { useReportFailure, useServices } from '../../shared/services';
import { DEVICE_FAILURE } from '../../offline/device-log';
import { useObjectUrls } from '../shared/PhotoSlots';

export function FotosPage({ flow }: { flow: FlowDefinition }) {
  const { id } = useParams();
  const navigate = useNavigate();
  const { records, transport } = useServices();
  const reportFailure = useReportFailure();
  const [state, setState] = useState<{ blobs: Blob[]; urls: string[]; loaded: boolean }>({
    blobs: [],
    urls: [],
    loaded: false,
  });

  useEffect(() => {
    let active = true;
    if (id === undefined) return;
    void (async () => {
      const record = await records.getByID(flow, id).catch((error: unknown) => {
        reportFailure(DEVICE_FAILURE.read(flow.labels.record), error);
        return undefined;
      });
      // A correction (issue 24) shows the server's photos it keeps, from the copies the sync fetched when it has them.
      const kept = (record?.fotosServidor ?? []).filter((foto) => !record?.fotos[foto.slot]);
      const blobs = [
        ...(record?.fotos ?? []).flatMap((blob, slot) => (blob ? [{ slot, blob }] : [])),
        ...kept.flatMap(({ slot, blob }) => (blob ? [{ slot, blob }] : [])),
      ]
        .sort((a, b) => a.slot - b.slot)
        .map(({ blob }) => blob);
      let urls = record?.fotosServidor
        ? kept.flatMap((foto) => (foto.blob ? [] : [foto.url]))
        : (record?.fotosUrls ?? []);
      if (blobs.length === 0 && urls.length === 0 && navigator.onLine)
        urls = await transport.listFotos(flow, id);
      if (active) setState({ blobs, urls, loaded: true });
    })();
    return () => {
      active = false;
    };
  }, [records, transport, flow, id, reportFailure]);

  const local = useObjectUrls(state.blobs);
  const sources = [...local.filter((url): url is string => url !== null), ...state.urls];

  return (
    <Stack spacing={2}>
      <Typography component="h1" variant="h5">
        Fotos — {flow.labels.record}
      </Typography>
      {!state.loaded && <LinearProgress aria-label="Carregando" />}
      {state.loaded && sources.length === 0 && <Alert severity="warning">{flow.noPhotosText}</Alert>}
      {sources.map((src, index) => (
        <Box
          key={src}
          component="img"
          src={src}
          alt={`Foto ${index + 1}`}
          sx={{ width: '100%', display: 'block' }}
        />
      ))}
      <Button variant="outlined" onClick={() => void navigate(-1)}>
        Voltar
      </Button>
    </Stack>
  );
}
