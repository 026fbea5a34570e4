// The project's basemap package (issue 23), if it has one: the supervisor map offers it as 'Mapa do projeto'.
import { getMapaBase, type MapaBase } from '@novus/domain/api/mapa-base';
import { ApiError } from '../../api/client';
import { SUPERVISOR_FAILURE } from './messages';
import { useReload } from './use-reload';

/** The package's metadata; null while it loads, when the project has none (404) or when it could not be read. */
export function useMapaBase(projetoId: string | null): MapaBase | null {
  const mapaBase = useReload(
    projetoId,
    projetoId ?? '',
    async (api) => {
      try {
        return await api.call(getMapaBase, { params: { id: projetoId ?? '' } });
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    SUPERVISOR_FAILURE.mapaBase,
  );
  return mapaBase.value;
}
