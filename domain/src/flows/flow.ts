// What every flow declares once (DESIGN.md 'The flow registry'): the server routes, the sync engine, the
// galleries and the exports iterate over these declarations instead of copying code per flow.
import type { Fluxo } from './keys.ts';
import { emptyToUndefined } from '../form-fields.ts';
import { z } from '../zod.ts';
import { isInBrazil } from '../geo/brazil.ts';

export interface FlowDefinition<
  Dados extends z.ZodType<Record<string, unknown>> = z.ZodType<Record<string, unknown>>,
> {
  key: Fluxo;
  /** Path under /api: POST /api/{apiPath}, GET /api/{apiPath}/getByZona, /api/{apiPath}/{id}/fotos. */
  apiPath: string;
  /** Dexie store on the device (SPEC.md section 3). */
  store: string;
  label: string;
  /** Status shown while this flow syncs ('Sincronizando unidades'). */
  syncStatus: string;
  /** Tag of the log entry when this flow's sync fails ('SINCRONIZACAO UNIDADES'). */
  syncTag: string;
  photoSlots: number;
  /** Uploaded units, poles, trees, LPT and Grupo A are deleted on the device after upload (SPEC.md section 4). */
  deleteAfterUpload: boolean;
  /** Gallery text when a record has no photos. */
  noPhotosText: string;
  /** The flow's own fields, validated on the form and on upload. */
  dados: Dados;
}

const latLng = z.object(
  {
    lat: z.number({ error: 'Latitude inválida.' }).min(-90).max(90),
    lng: z.number({ error: 'Longitude inválida.' }).min(-180).max(180),
  },
  { error: 'As coordenadas são obrigatórias.' },
);

/** coordenadas as {lat, lng}, [lat, lng], or either as a JSON string (multipart fields are strings). */
export const coordenadasSchema = z
  .preprocess((value) => {
    let parsed = value;
    if (typeof value === 'string') {
      try {
        parsed = JSON.parse(value);
      } catch {
        return value;
      }
    }
    if (Array.isArray(parsed)) return { lat: parsed[0], lng: parsed[1] };
    return parsed;
  }, latLng)
  .refine((point) => isInBrazil(point.lat, point.lng), { message: 'As coordenadas estão fora do Brasil.' });

/** The part of an upload every flow shares: the id made on the device, the project, where and when. */
export const uploadEnvelopeSchema = z.object({
  id: z.uuid({ error: 'Identificador do registro inválido.' }),
  projeto: z.uuid({ error: 'Projeto inválido.' }),
  coordenadas: coordenadasSchema,
  dataHora: z.coerce
    .number({ error: 'Data e hora inválidas.' })
    .int('Data e hora inválidas.')
    .positive('Data e hora inválidas.'),
  /** GPS accuracy in metres when the point was taken. */
  precisao: z.preprocess(
    emptyToUndefined,
    z.coerce.number({ error: 'Precisão inválida.' }).min(0).optional(),
  ),
});
export type UploadEnvelope = z.infer<typeof uploadEnvelopeSchema>;

/** An optional text field as forms send it: absent, null or '' become ''. */
export const optionalText = (max = 500) =>
  z.preprocess(
    (value) => (value === undefined || value === null ? '' : String(value)),
    z.string().trim().max(max),
  );
