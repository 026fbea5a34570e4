// The scanner a scan button opens (issue 26): the camera's preview, read a few times a second until a code is
// found; its text goes back to the field and the dialog closes. A chunk of its own, fetched on the first scan.
import { useEffect, useId, useRef, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Typography,
} from '@mui/material';
import { abrirCamera, criarLeitor, LEITOR_INDISPONIVEL, mensagemDaCamera } from './leitor';

/** Between two reads: often enough to feel instant, seldom enough for a slow phone's wasm to keep up. */
const INTERVALO_MS = 150;

type Estado = { tipo: 'abrindo' } | { tipo: 'lendo' } | { tipo: 'erro'; mensagem: string };

export function LeitorCodigoDialog({
  campo,
  onLido,
  onFechar,
}: {
  /** The field's label ('Medidor'). */
  campo: string;
  onLido: (texto: string) => void;
  onFechar: () => void;
}) {
  const titleId = useId();
  const statusId = useId();
  const videoRef = useRef<HTMLVideoElement>(null);
  const [estado, setEstado] = useState<Estado>({ tipo: 'abrindo' });
  const onLidoRef = useRef(onLido);
  useEffect(() => {
    onLidoRef.current = onLido;
  });

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    let stream: MediaStream | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The reader (maybe 1 MB of wasm) loads while the technician allows the camera.
    const leitorPronto = criarLeitor();
    leitorPronto.catch(() => undefined);

    void (async () => {
      try {
        stream = await abrirCamera();
      } catch (error) {
        if (!signal.aborted) setEstado({ tipo: 'erro', mensagem: mensagemDaCamera(error) });
        return;
      }
      if (signal.aborted) {
        stream.getTracks().forEach((track) => track.stop());
        return;
      }
      const video = videoRef.current;
      if (!video) return;
      video.srcObject = stream;
      await video.play().catch(() => undefined); // autoplay muted inline: play() only fails when closed meanwhile
      let leitor;
      try {
        leitor = await leitorPronto;
      } catch {
        if (!signal.aborted) setEstado({ tipo: 'erro', mensagem: LEITOR_INDISPONIVEL });
        return;
      }
      if (signal.aborted) return;
      setEstado({ tipo: 'lendo' });
      const ler = async () => {
        if (signal.aborted) return;
        // HAVE_CURRENT_DATA: a frame to read; before it the decoder would throw on an empty video.
        if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) {
          const texto = await leitor.ler(video).catch(() => null);
          if (texto !== null && !signal.aborted) {
            controller.abort();
            onLidoRef.current(texto);
            return;
          }
        }
        timer = setTimeout(() => void ler(), INTERVALO_MS);
      };
      void ler();
    })();

    return () => {
      controller.abort();
      clearTimeout(timer);
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, []);

  return (
    <Dialog
      open
      onClose={onFechar}
      fullWidth
      maxWidth="sm"
      aria-labelledby={titleId}
      aria-describedby={statusId}
    >
      <DialogTitle id={titleId}>Ler código de barras de {campo}</DialogTitle>
      <DialogContent>
        <Box
          sx={{
            position: 'relative',
            bgcolor: 'common.black',
            borderRadius: 1,
            overflow: 'hidden',
            aspectRatio: '4 / 3',
            display: estado.tipo === 'erro' ? 'none' : 'block',
          }}
        >
          <Box
            component="video"
            ref={videoRef}
            muted
            playsInline
            autoPlay
            aria-label="Imagem da câmera"
            data-testid="leitor-video"
            sx={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
          />
          {/* Where to hold the label: a guide only, the whole frame is read. */}
          <Box
            aria-hidden
            sx={{
              position: 'absolute',
              inset: '30% 8%',
              border: 3,
              borderColor: 'common.white',
              borderRadius: 1,
              boxShadow: '0 0 0 2000px rgba(0, 0, 0, 0.35)',
            }}
          />
        </Box>
        <Box id={statusId} role="status" sx={{ mt: 2 }}>
          {estado.tipo === 'erro' ? (
            <Alert severity="error">{estado.mensagem}</Alert>
          ) : (
            <Typography>
              {estado.tipo === 'abrindo'
                ? 'Abrindo a câmera…'
                : 'Aponte a câmera para o código de barras ou QR Code da etiqueta.'}
            </Typography>
          )}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onFechar} sx={{ minHeight: 48, minWidth: 96 }}>
          Cancelar
        </Button>
      </DialogActions>
    </Dialog>
  );
}
