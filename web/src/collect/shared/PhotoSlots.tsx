// Camera inputs, one per photo slot ('Foto 1', 'Foto 2', ...), each with its thumbnail; or, for a flow that
// takes its photos as one list (BDGD), the photos taken and one 'Adicionar foto'. Photos stay Blobs. A correction
// (issue 24) also shows the server's photos in their slots: kept, replaced by a photo taken there, or removed.
import { useEffect, useMemo } from 'react';
import { Box, Button, IconButton, Stack, Typography } from '@mui/material';
import PhotoCameraIcon from '@mui/icons-material/PhotoCamera';
import DeleteIcon from '@mui/icons-material/Delete';

interface Props {
  fotos: readonly (Blob | null)[];
  slots: number;
  onChange?: (fotos: (Blob | null)[]) => void;
  disabled?: boolean;
  /** One list of photos instead of numbered slots. */
  list?: boolean;
  /** The server's photos by slot (a correction's): shown where no photo was taken; their bytes when fetched. */
  servidor?: readonly ServerPhoto[];
  /** The server's photo of this slot is removed. */
  onRemoveServidor?: (slot: number) => void;
}

export interface ServerPhoto {
  slot: number;
  url: string;
  blob?: Blob;
}

export function PhotoSlots({
  fotos,
  slots,
  onChange,
  disabled,
  list,
  servidor = [],
  onRemoveServidor,
}: Props) {
  const own = useObjectUrls(fotos);
  const serverBlobs = useMemo(
    () =>
      Array.from({ length: slots }, (_, slot) => servidor.find((foto) => foto.slot === slot)?.blob ?? null),
    [servidor, slots],
  );
  const fetched = useObjectUrls(serverBlobs);
  // Offline, a server photo shows from the copy the sync fetched; online without one, from the server.
  const urls = Array.from(
    { length: slots },
    (_, slot) => own[slot] ?? fetched[slot] ?? servidor.find((foto) => foto.slot === slot)?.url ?? null,
  );
  const occupied = new Set(servidor.map((foto) => foto.slot));
  const set = (slot: number, blob: Blob | null) => {
    const next = Array.from({ length: slots }, (_, index) => fotos[index] ?? null);
    next[slot] = blob;
    if (blob === null && occupied.has(slot)) onRemoveServidor?.(slot);
    onChange?.(list ? compact(next, slots, occupied) : next);
  };
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))', gap: 1.5 }}>
      {Array.from({ length: slots }, (_, slot) => {
        const url = urls[slot];
        // read-only, or a list: only the photos taken (and the list's next one), not a wall of empty slots
        if (disabled && !url) return null;
        if (list && !url && slot !== firstFree(urls)) return null;
        const label = list && !url ? 'Adicionar foto' : `Foto ${slot + 1}`;
        return (
          <Stack key={slot} spacing={0.5}>
            <Box
              sx={{
                position: 'relative',
                aspectRatio: '4 / 3',
                borderRadius: 1,
                border: 1,
                borderColor: 'grey.600',
                bgcolor: 'grey.100',
                overflow: 'hidden',
                display: 'grid',
                placeItems: 'center',
              }}
            >
              {url ? (
                <img
                  src={url}
                  alt={`Miniatura da ${label}`}
                  style={{ width: '100%', height: '100%', objectFit: 'cover' }}
                />
              ) : (
                <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                  Sem foto
                </Typography>
              )}
              {url && !disabled && (
                <IconButton
                  aria-label={`Remover ${label}`}
                  onClick={() => set(slot, null)}
                  sx={{
                    position: 'absolute',
                    top: 4,
                    right: 4,
                    width: 48,
                    height: 48,
                    bgcolor: 'rgba(255,255,255,0.92)',
                    '&:hover': { bgcolor: '#ffffff' },
                  }}
                >
                  <DeleteIcon />
                </IconButton>
              )}
            </Box>
            {disabled ? (
              <Typography variant="body2" sx={{ textAlign: 'center' }}>
                {label}
              </Typography>
            ) : (
              <Button
                component="label"
                variant={url ? 'outlined' : 'contained'}
                startIcon={<PhotoCameraIcon aria-hidden />}
                // no colour transition: the variant flips when a photo arrives, and a half-blended button is unreadable
                sx={{ minHeight: 48, transition: 'none' }}
              >
                {label}
                <input
                  type="file"
                  accept="image/*"
                  capture="environment"
                  hidden
                  onChange={(event) => {
                    const file = event.target.files?.[0];
                    if (file) set(slot, file);
                    event.target.value = '';
                  }}
                />
              </Button>
            )}
          </Stack>
        );
      })}
    </Box>
  );
}

/** Object URLs for the Blobs, revoked when the Blobs change or the screen goes. */
export function useObjectUrls(blobs: readonly (Blob | null)[]): (string | null)[] {
  const urls = useMemo(() => blobs.map((blob) => (blob ? URL.createObjectURL(blob) : null)), [blobs]);
  useEffect(
    () => () => {
      for (const url of urls) if (url) URL.revokeObjectURL(url);
    },
    [urls],
  );
  return urls;
}

/** The list's photos first, in order, then the empty places; the server's photos keep their places. */
function compact(fotos: (Blob | null)[], slots: number, occupied: ReadonlySet<number>): (Blob | null)[] {
  const taken = fotos.filter((foto): foto is Blob => foto !== null);
  const free = Array.from({ length: slots }, (_, slot) => slot).filter((slot) => !occupied.has(slot));
  const next: (Blob | null)[] = Array.from({ length: slots }, () => null);
  for (const [index, blob] of taken.entries()) {
    const slot = free[index];
    if (slot !== undefined) next[slot] = blob;
  }
  return next;
}

/** The list's next place for a photo. */
function firstFree(urls: readonly (string | null)[]): number {
  const slot = urls.indexOf(null);
  return slot === -1 ? urls.length : slot;
}
