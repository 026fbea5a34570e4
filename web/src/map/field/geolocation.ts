// The device position, watched (SPEC.md sections 5 and 9): high accuracy, 5 s to decide, positions up to 10 s old.
import { useEffect, useState } from 'react';

export const GEO_OPTIONS: PositionOptions = { enableHighAccuracy: true, timeout: 5000, maximumAge: 10000 };

export const GEO_TEXTS = {
  unavailable: 'Geolocalização não disponível',
  denied: 'Geolocalização não habilitada',
  unsupported: 'Geo localização não suportada',
  unsupportedEnglish: 'Geolocation is not supported by your browser.',
} as const;

export interface GeoFix {
  lat: number;
  lng: number;
  /** metres */
  accuracy: number;
}

export interface GeoState {
  position: GeoFix | null;
  error: string | null;
}

/** GeolocationPositionError.PERMISSION_DENIED is 1; POSITION_UNAVAILABLE (2) and TIMEOUT (3) read alike. */
export function geoErrorText(code: number): string {
  return code === 1 ? GEO_TEXTS.denied : GEO_TEXTS.unavailable;
}

export function useGeolocation(): GeoState {
  const supported = typeof navigator !== 'undefined' && 'geolocation' in navigator;
  const [state, setState] = useState<GeoState>({
    position: null,
    error: supported ? null : GEO_TEXTS.unsupported,
  });
  useEffect(() => {
    if (!supported) return;
    const id = navigator.geolocation.watchPosition(
      ({ coords }) =>
        setState({
          position: { lat: coords.latitude, lng: coords.longitude, accuracy: coords.accuracy },
          error: null,
        }),
      // a late error keeps the last known position: the technician still sees where they were
      (error) => setState((prev) => ({ ...prev, error: geoErrorText(error.code) })),
      GEO_OPTIONS,
    );
    return () => navigator.geolocation.clearWatch(id);
  }, [supported]);
  return state;
}
