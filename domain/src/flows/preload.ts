// What the preloaded flows share: a point of a project file (parsed by domain/geo/point-files or sent as JSON)
// turned into the stored shape, coordinates as columns and the rest in `dados`.
import { z } from '../zod.ts';
import type { PreloadedPonto } from './flow.ts';

const latitude = z.number().min(-90).max(90);
const longitude = z.number().min(-180).max(180);
export const pontoCoordenadas = z.tuple([latitude, longitude], {
  error: 'coordenadas devem ser [latitude, longitude].',
});
export const pontoText = z.preprocess(
  (value) => (value === undefined || value === null ? '' : String(value)),
  z.string().max(500, 'O texto deve ter no máximo 500 caracteres.'),
);

/** A parsed or JSON point ({coordenadas: [lat, lng], ...fields}) as stored. */
export function toPreloaded(ponto: object): PreloadedPonto {
  const {
    coordenadas,
    localizacao: _localizacao,
    carregadoBackoffice: _carregado,
    coletado: _coletado,
    ...dados
  } = ponto as {
    coordenadas?: readonly [number, number];
    localizacao?: unknown;
    carregadoBackoffice?: unknown;
    coletado?: unknown;
  } & Record<string, unknown>; // every parser and JSON schema of the preloaded flows yields this shape
  return { lat: coordenadas?.[0] ?? null, lng: coordenadas?.[1] ?? null, dados };
}

/** A JSON point schema whose output is the stored shape. */
export function pontoJson<S extends z.ZodType<object>>(schema: S): z.ZodType<PreloadedPonto> {
  return schema.transform(toPreloaded) as unknown as z.ZodType<PreloadedPonto>; // output is PreloadedPonto by toPreloaded
}

/** '{lat},{lng}' to six decimals, the position part of a preloaded point's identity. */
export function positionKey(ponto: PreloadedPonto): string {
  return `${ponto.lat?.toFixed(6) ?? ''},${ponto.lng?.toFixed(6) ?? ''}`;
}

export const field = (ponto: PreloadedPonto, name: string): string => String(ponto.dados[name] ?? '');

/** The point-file parsers, loaded when a file is first read (they bring papaparse and proj4). */
export const pointFiles = () => import('../geo/point-files.ts');
