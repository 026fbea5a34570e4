// 'Mapa offline' of the project form (issue 23): the project's basemap package (a PMTiles archive) uploaded with a
// progress bar or read from a URL, what it holds, whether it covers the zones, and its removal. Each action is saved
// at once, apart from the form's Gravar; only the administrador changes it, the others see it.
import { useEffect, useId, useRef, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Divider,
  FormControl,
  FormHelperText,
  FormLabel,
  LinearProgress,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import LinkIcon from '@mui/icons-material/Link';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { deleteMapaBase, getMapaBase, putMapaBaseUrl, type MapaBase } from '@novus/domain/api/mapa-base';
import { me } from '@novus/domain/api/auth';
import { ApiError } from '../../api/client';
import { useSession } from '../../shared/services';
import { useBackofficeApi } from '../backoffice-api';
import { serverMessageOr } from '../server-message';
import { DeleteDialog } from '../shared/DeleteDialog';
import { uploadMapaBase, UploadCanceled, type MapaBaseUpload } from './mapa-base-upload';
import {
  atribuicaoText,
  blocosText,
  coberturaText,
  limitesText,
  MAPA_OFFLINE_TEXT,
  percentual,
  progressoText,
  tamanhoText,
  tipoText,
  zoomText,
} from './mapa-offline';

interface Props {
  /** Undefined while the project is not saved yet. */
  projetoId: string | undefined;
  /** The project's saved zones (a new list after each save): the server measures the coverage against them. */
  zonas: readonly { label: string }[];
}

interface SectionNotice {
  severity: 'success' | 'error' | 'info';
  text: string;
}

type Busy = 'upload' | 'url' | 'remove' | null;

export function MapaOffline({ projetoId, zonas }: Props) {
  const headingId = useId();
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ pt: 1 }}>
      <Divider sx={{ mb: 2 }} />
      <Typography id={headingId} component="h2" variant="h6" gutterBottom>
        Mapa offline
      </Typography>
      {projetoId === undefined ? (
        <Typography variant="body2" color="text.secondary">
          {MAPA_OFFLINE_TEXT.novoProjeto}
        </Typography>
      ) : (
        <MapaOfflineEdit projetoId={projetoId} zonas={zonas} />
      )}
    </Box>
  );
}

function MapaOfflineEdit({ projetoId, zonas }: { projetoId: string; zonas: Props['zonas'] }) {
  const { api, log } = useBackofficeApi();
  const session = useSession();
  const administrador = session?.roles.includes('administrador') ?? false;
  const [mapa, setMapa] = useState<MapaBase | null>();
  const [notice, setNotice] = useState<SectionNotice | null>(null);
  const [picked, setPicked] = useState<File | null>(null);
  const [progress, setProgress] = useState<{ sent: number; total: number } | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const [url, setUrl] = useState('');
  const [urlError, setUrlError] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const upload = useRef<MapaBaseUpload | null>(null);

  useEffect(() => {
    let active = true;
    api.call(getMapaBase, { params: { id: projetoId } }).then(
      (answer) => active && setMapa(answer),
      (error: unknown) => {
        if (!active) return;
        setMapa(null);
        // 404: the project has no package
        if (error instanceof ApiError && error.status === 404) return;
        log('Falha ao carregar o mapa offline', error);
        setNotice({ severity: 'error', text: serverMessageOr(error, MAPA_OFFLINE_TEXT.carregarFalhou) });
      },
    );
    return () => {
      active = false;
    };
    // zonas: saving the project may change its zones, and so the coverage
  }, [api, log, projetoId, zonas]);

  // Leaving the screen stops an upload in flight; closing the tab asks first.
  useEffect(() => () => upload.current?.cancel(), []);
  useEffect(() => {
    if (busy !== 'upload') return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [busy]);

  const failed = (error: unknown, logText: string, fallback: string) => {
    log(logText, error);
    // the session ended during a long upload: the client's own 401 handling sends the user to log in
    if (error instanceof ApiError && error.status === 401) void api.call(me, {}).catch(() => undefined);
    const text =
      error instanceof ApiError && error.status === 0
        ? MAPA_OFFLINE_TEXT.semRede
        : serverMessageOr(error, fallback);
    setNotice({ severity: 'error', text });
  };

  const enviar = async (file: File) => {
    setNotice(null);
    setBusy('upload');
    setProgress({ sent: 0, total: file.size });
    const current = uploadMapaBase(projetoId, file, (sent, total) => setProgress({ sent, total }));
    upload.current = current;
    try {
      setMapa(await current.done);
      setPicked(null);
      setNotice({ severity: 'success', text: MAPA_OFFLINE_TEXT.enviado });
    } catch (error) {
      if (error instanceof UploadCanceled) setNotice({ severity: 'info', text: MAPA_OFFLINE_TEXT.cancelado });
      else failed(error, 'Falha ao enviar o mapa offline', MAPA_OFFLINE_TEXT.envioFalhou);
    } finally {
      upload.current = null;
      setProgress(null);
      setBusy(null);
    }
  };

  const usarUrl = async () => {
    const value = url.trim();
    if (!/^https?:\/\/\S+$/i.test(value)) {
      setUrlError(MAPA_OFFLINE_TEXT.urlObrigatoria);
      return;
    }
    setUrlError(undefined);
    setNotice(null);
    setBusy('url');
    try {
      setMapa(await api.call(putMapaBaseUrl, { params: { id: projetoId }, body: { url: value } }));
      setUrl('');
      setNotice({ severity: 'success', text: MAPA_OFFLINE_TEXT.enviado });
    } catch (error) {
      failed(error, 'Falha ao usar a URL do mapa offline', MAPA_OFFLINE_TEXT.urlFalhou);
    } finally {
      setBusy(null);
    }
  };

  const remover = async () => {
    setConfirming(false);
    setNotice(null);
    setBusy('remove');
    try {
      await api.call(deleteMapaBase, { params: { id: projetoId } });
      setMapa(null);
      setNotice({ severity: 'success', text: MAPA_OFFLINE_TEXT.removido });
    } catch (error) {
      failed(error, 'Falha ao remover o mapa offline', MAPA_OFFLINE_TEXT.remocaoFalhou);
    } finally {
      setBusy(null);
    }
  };

  if (mapa === undefined) return <CircularProgress size={24} aria-label="Carregando mapa offline" />;

  return (
    <Stack spacing={2}>
      {notice !== null && (
        <Alert severity={notice.severity} role={notice.severity === 'error' ? 'alert' : 'status'}>
          {notice.text}
        </Alert>
      )}
      {mapa === null ? (
        <Typography variant="body2">{MAPA_OFFLINE_TEXT.semMapa}</Typography>
      ) : (
        <MapaBaseShow mapa={mapa} zonas={zonas.length} />
      )}
      {mapa !== null && administrador && (
        <Box>
          <Button
            variant="outlined"
            color="error"
            startIcon={<DeleteOutlineIcon />}
            disabled={busy !== null}
            onClick={() => setConfirming(true)}
          >
            Remover mapa offline
          </Button>
        </Box>
      )}
      {!administrador && (
        <Typography variant="body2" color="text.secondary">
          {MAPA_OFFLINE_TEXT.somenteLeitura}
        </Typography>
      )}
      {administrador && (
        <>
          <FormControl component="fieldset">
            <FormLabel component="legend">
              {mapa === null ? 'Enviar um arquivo' : 'Substituir por outro arquivo'}
            </FormLabel>
            <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
              <Button
                variant="outlined"
                startIcon={<UploadFileIcon />}
                disabled={busy !== null}
                onClick={() => input.current?.click()}
              >
                Escolher arquivo PMTiles
              </Button>
              <input
                ref={input}
                type="file"
                hidden
                accept=".pmtiles"
                aria-label="Arquivo PMTiles"
                onChange={(event) => {
                  const file = event.currentTarget.files?.[0];
                  // the same file picked again must fire change again
                  event.currentTarget.value = '';
                  if (file !== undefined) {
                    setNotice(null);
                    setPicked(file);
                  }
                }}
              />
              {picked !== null && (
                <>
                  <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                    {picked.name} — <strong>{tamanhoText(picked.size)}</strong>
                  </Typography>
                  <Button variant="contained" disabled={busy !== null} onClick={() => void enviar(picked)}>
                    {mapa === null ? 'Enviar mapa' : 'Substituir mapa'}
                  </Button>
                </>
              )}
            </Stack>
            <FormHelperText>{MAPA_OFFLINE_TEXT.ajuda}</FormHelperText>
          </FormControl>
          {progress !== null && (
            <Box>
              <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
                <Box sx={{ flex: 1 }}>
                  <LinearProgress
                    aria-label="Envio do mapa offline"
                    variant={progress.sent >= progress.total ? 'indeterminate' : 'determinate'}
                    value={percentual(progress.sent, progress.total)}
                  />
                </Box>
                <Button size="small" onClick={() => upload.current?.cancel()}>
                  Cancelar envio
                </Button>
              </Stack>
              <Typography variant="body2" sx={{ mt: 0.5 }}>
                {progressoText(progress.sent, progress.total)}
              </Typography>
            </Box>
          )}
          <Box>
            <Stack
              direction={{ xs: 'column', sm: 'row' }}
              spacing={1}
              sx={{ alignItems: { sm: 'flex-start' } }}
            >
              <TextField
                label="URL do arquivo PMTiles"
                type="url"
                size="small"
                value={url}
                placeholder="https://exemplo.com.br/mapa.pmtiles"
                onChange={(event) => {
                  setUrl(event.target.value);
                  setUrlError(undefined);
                }}
                onKeyDown={(event) => {
                  // Enter here uses the URL; it must not send the project form around this section
                  if (event.key !== 'Enter') return;
                  event.preventDefault();
                  if (busy === null) void usarUrl();
                }}
                error={urlError !== undefined}
                helperText={urlError ?? MAPA_OFFLINE_TEXT.urlAjuda}
                disabled={busy !== null}
                slotProps={{ inputLabel: { shrink: true } }}
                sx={{ flex: 1 }}
              />
              <Button
                variant="outlined"
                startIcon={busy === 'url' ? <CircularProgress size={18} color="inherit" /> : <LinkIcon />}
                disabled={busy !== null}
                onClick={() => void usarUrl()}
                sx={{ whiteSpace: 'nowrap', height: 40 }}
              >
                Usar URL
              </Button>
            </Stack>
          </Box>
        </>
      )}
      <DeleteDialog
        open={confirming}
        text={MAPA_OFFLINE_TEXT.confirmarRemocao}
        onConfirm={() => void remover()}
        onCancel={() => setConfirming(false)}
      />
    </Stack>
  );
}

/** What the package holds, and whether it covers the project's zones. */
function MapaBaseShow({ mapa, zonas }: { mapa: MapaBase; zonas: number }) {
  const cobertura = coberturaText(mapa.zonasDescobertas, zonas);
  const rows: [string, string][] = [
    [mapa.origem === 'url' ? 'URL' : 'Arquivo', mapa.nome],
    ['Tipo', tipoText(mapa.tipo)],
    ['Zooms', zoomText(mapa.minZoom, mapa.maxZoom)],
    ['Limites', limitesText(mapa.limites)],
    ['Tamanho', tamanhoText(mapa.tamanho)],
    ['Blocos', blocosText(mapa.blocos)],
    ['Atribuição', atribuicaoText(mapa.atribuicao)],
  ];
  if (mapa.vetorial && mapa.camadas.length > 0) rows.push(['Camadas', mapa.camadas.join(', ')]);
  return (
    <Stack spacing={1.5}>
      <Box
        component="dl"
        aria-label="Dados do mapa offline"
        sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0 }}
      >
        {rows.map(([term, value]) => (
          <Box key={term} sx={{ display: 'contents' }}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {term}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
              {value}
            </Typography>
          </Box>
        ))}
      </Box>
      {/* a standing fact of the package, not an event: a note, not an alert */}
      <Alert severity={cobertura.severity} role="note">
        {cobertura.text}
      </Alert>
    </Stack>
  );
}
