// The map step every wizard shares: the field map, the GPS state, 'Usar minha localização', 'Próximo ponto' (flows
// whose points come preloaded) and 'Download do Mapa'.
import { type ReactNode, useMemo, useState } from 'react';
import { Alert, AlertTitle, Button, Stack, Typography } from '@mui/material';
import MyLocationIcon from '@mui/icons-material/MyLocation';
import { FieldMap, type LatLng } from '../../map/field/FieldMap';
import type { MapPoint } from '../../map/field/types';
import { GEO_TEXTS, type GeoState } from '../../map/field/geolocation';
import { MapDownload } from '../../map/field/MapDownload';
import { useTileConfig } from '../../map/field/tile-config';
import type { LocalProjeto } from '../../offline/db';
import { ProximoPonto, type ProximoPontoProps } from './ProximoPonto';

export const PICK_POINT = 'Escolha um ponto no mapa';

/** A chosen point and the GPS accuracy (m) when it was chosen. */
export interface ChosenPoint extends LatLng {
  precisao?: number;
}

interface Props {
  projeto: LocalProjeto;
  geo: GeoState;
  points: readonly MapPoint[];
  picked: ChosenPoint | null;
  onPick: (point: ChosenPoint) => void;
  onPointClick?: (id: string) => void;
  /** 'Próximo ponto' and 'Buscar ponto', on the flows whose points come preloaded (issue 26). */
  proximo?: ProximoPontoProps;
  children?: ReactNode;
}

export function MapStep({ projeto, geo, points, picked, onPick, onPointClick, proximo, children }: Props) {
  const tiles = useTileConfig();
  // The point 'Próximo ponto' chose: marked on the map, which centres on it each time the button is pressed.
  const [alvo, setAlvo] = useState<{ id: string | null; centre: LatLng | null }>({ id: null, centre: null });
  const shown = useMemo(
    () =>
      alvo.id === null
        ? points
        : points.map((point) => (point.id === alvo.id ? { ...point, selected: true } : point)),
    [points, alvo.id],
  );
  const accuracy = geo.position ? { precisao: Math.round(geo.position.accuracy * 10) / 10 } : {};
  return (
    <Stack spacing={1.5}>
      {geo.error !== null && (
        <Alert severity="error">
          {geo.error === GEO_TEXTS.unsupported ? (
            <>
              <AlertTitle>{GEO_TEXTS.unsupported}</AlertTitle>
              {GEO_TEXTS.unsupportedEnglish}
            </>
          ) : (
            geo.error
          )}
        </Alert>
      )}
      <FieldMap
        tiles={tiles}
        mapaBase={projeto.mapaBase ? { projeto: projeto.id, mapa: projeto.mapaBase } : null}
        zonas={projeto.zonas}
        points={shown}
        position={geo.position}
        picked={picked}
        focus={alvo.centre}
        onPick={(point) => onPick({ ...point, ...accuracy })}
        onPointClick={onPointClick}
      />
      {proximo && (
        <ProximoPonto
          {...proximo}
          zonas={projeto.zonas}
          position={geo.position}
          alvo={alvo.id}
          onAlvo={(id, centre) => setAlvo({ id, centre })}
        />
      )}
      <Typography variant="body2" data-testid="ponto-escolhido">
        {picked
          ? `Ponto: ${picked.lat.toFixed(6)}, ${picked.lng.toFixed(6)}.`
          : 'Toque no mapa para escolher o ponto.'}
        {geo.position ? ` GPS com precisão de ${Math.round(geo.position.accuracy)} m.` : ''}
      </Typography>
      <Button
        variant="outlined"
        startIcon={<MyLocationIcon aria-hidden />}
        disabled={geo.position === null}
        onClick={() => geo.position && onPick({ lat: geo.position.lat, lng: geo.position.lng, ...accuracy })}
      >
        Usar minha localização
      </Button>
      {children}
      <MapDownload projeto={projeto} tiles={tiles ?? null} />
    </Stack>
  );
}
