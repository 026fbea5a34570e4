// A project and the rules of its form (SPEC.md sections 2, 3, 7): scalar fields here, zones and points from
// files (parsed by domain/geo) or from the JSON fields the spec's API carries.
import { RETENCAO_COPIAS_DIAS_MAX, RETENCAO_COPIAS_DIAS_MIN } from './constants.ts';
import { FLUXOS } from './flows/keys.ts';
import { FUSOS } from './geo/fusos.ts';
import { booleanField, emptyToUndefined, listField } from './form-fields.ts';
import { z } from './zod.ts';

/** fluxos as a list, a JSON list, a comma-separated string or one repeated form field. */
const fluxosField = listField(z.enum(FLUXOS, { error: 'Fluxo desconhecido.' }), 'Fluxos inválidos.')
  .refine((fluxos) => fluxos.length > 0, { message: 'Escolha pelo menos um fluxo.' })
  .transform((fluxos) => [...new Set(fluxos)]);

const RETENCAO_COPIAS_TEXT = `O campo Cópias de segurança no aparelho (dias) deve ser um número inteiro de ${RETENCAO_COPIAS_DIAS_MIN} a ${RETENCAO_COPIAS_DIAS_MAX}.`;

export const projetoFieldsSchema = z.object({
  nome: z
    .string({ error: 'O nome do projeto é obrigatório.' })
    .trim()
    .min(1, 'O nome do projeto é obrigatório.')
    .max(200, 'O nome do projeto deve ter no máximo 200 caracteres.'),
  cliente: z.uuid({ error: 'Escolha o cliente do projeto.' }),
  fuso: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'Fuso inválido.' })
      .refine((fuso) => (FUSOS as readonly number[]).includes(fuso), {
        message: 'O fuso deve ser de 18 a 25.',
      })
      .optional(),
  ),
  fluxos: fluxosField,
  disponivelInterpres: booleanField('Valor inválido para Disponibilizar no Interpres.'),
  // absent: left as it is (on for a new project); the form always sends it
  carimboFotos: booleanField('Valor inválido para Carimbar as fotos.').optional(),
  // absent: left as it is (RETENCAO_COPIAS_DIAS for a new project); the form always sends it
  retencaoCopiasDias: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'Valor inválido para Cópias de segurança no aparelho (dias).' })
      .int(RETENCAO_COPIAS_TEXT)
      .min(RETENCAO_COPIAS_DIAS_MIN, RETENCAO_COPIAS_TEXT)
      .max(RETENCAO_COPIAS_DIAS_MAX, RETENCAO_COPIAS_TEXT)
      .optional(),
  ),
  limiteDownload: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'Limite de download inválido.' })
      .int('O limite de download deve ser um número inteiro.')
      .min(0, 'O limite de download não pode ser negativo.')
      .optional(),
  ),
});
export type ProjetoFields = z.infer<typeof projetoFieldsSchema>;

export const zonaJsonSchema = z.object({
  _id: z.uuid().optional(),
  label: z.preprocess(
    (value) => (value === undefined || value === null ? '' : String(value)),
    z.string().max(200),
  ),
  poligono2: z.object({
    type: z.literal('Polygon', { error: 'poligono2 deve ser um Polygon GeoJSON.' }),
    coordinates: z.array(z.array(z.array(z.number()).min(2)).min(1)).min(1),
  }),
});
