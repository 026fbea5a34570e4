// 'Atualizar localização' in the form of a record chosen from a list: takes the GPS position for this collection.
import { Alert, Button, Stack, Typography } from '@mui/material';
import MyLocationIcon from '@mui/icons-material/MyLocation';
import type { GeoState } from '../../map/field/geolocation';
import type { ChosenPoint } from './MapStep';

interface Props {
  geo: GeoState;
  /** The position taken by the last press (null: not pressed yet for this collection). */
  point: ChosenPoint | null;
  onRefresh: (point: ChosenPoint) => void;
}

export function RefreshLocation({ geo, point, onRefresh }: Props) {
  const { position } = geo;
  return (
    <Stack spacing={1} component="section" aria-labelledby="localizacao-titulo">
      <Typography component="h2" variant="h6" id="localizacao-titulo">
        Localização
      </Typography>
      {geo.error !== null && <Alert severity="error">{geo.error}</Alert>}
      <Typography variant="body2" data-testid="localizacao">
        {point
          ? `Localização: ${point.lat.toFixed(6)}, ${point.lng.toFixed(6)}${
              point.precisao !== undefined ? ` (precisão de ${Math.round(point.precisao)} m)` : ''
            }.`
          : position
            ? 'Pressione Atualizar localização para gravar a posição deste registro.'
            : 'Aguardando o GPS…'}
      </Typography>
      <Button
        variant="outlined"
        startIcon={<MyLocationIcon aria-hidden />}
        disabled={position === null}
        onClick={() =>
          position &&
          onRefresh({
            lat: position.lat,
            lng: position.lng,
            precisao: Math.round(position.accuracy * 10) / 10,
          })
        }
      >
        Atualizar localização
      </Button>
    </Stack>
  );
}
