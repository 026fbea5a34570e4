// Flow hc — Unidade: a unit or property (SPEC.md sections 2–5).
import { TIPOS_EDIFICACAO, TIPOS_IMOVEL, TIPOS_UNIDADE } from '../lists/unidade.ts';
import { emptyToUndefined } from '../form-fields.ts';
import { z } from '../zod.ts';
import { type FlowDefinition, optionalText } from './flow.ts';

const digits = /^\d+$/;

export const unidadeDadosSchema = z
  .object({
    tipoUnidade: z.enum(TIPOS_UNIDADE, { error: 'O tipo de unidade é obrigatório.' }),
    tipoEdificacao: z.enum(TIPOS_EDIFICACAO, { error: 'O tipo de edificação é obrigatório.' }),
    tipoImovel: z
      .string({ error: 'O tipo de imóvel é obrigatório.' })
      .trim()
      .min(1, 'O tipo de imóvel é obrigatório.'),
    numero: z
      .preprocess((value) => (value === undefined || value === null ? '' : String(value)), z.string().trim())
      .refine((numero) => numero !== '', { message: 'O número é obrigatório.' })
      .refine((numero) => numero === '' || digits.test(numero), { message: 'O número deve ser numérico.' }),
    complementoNumero: optionalText(100),
    complemento1: optionalText(100),
    complemento2: optionalText(100),
    complemento3: optionalText(100),
    quantidade: optionalText(10),
    nomeEdificio: optionalText(200),
    nomeBloco: optionalText(100),
    totalAndares: optionalText(10),
    aptosPorAndar: optionalText(10),
    observacao: optionalText(2000),
    /** The pole (its id, made on the device like every record's) that feeds this unit. */
    drop: z.preprocess(emptyToUndefined, z.uuid('Poste inválido.').optional()),
  })
  .superRefine((unidade, ctx) => {
    const allowed = TIPOS_IMOVEL[unidade.tipoEdificacao];
    if (!allowed.includes(unidade.tipoImovel)) {
      ctx.addIssue({ code: 'custom', message: 'Tipo de imóvel inválido para o tipo de edificação.' });
    }
    const numeric = (value: string, label: string, required: boolean) => {
      if (value === '' && required) ctx.addIssue({ code: 'custom', message: `${label} é obrigatório.` });
      else if (value !== '' && !digits.test(value))
        ctx.addIssue({ code: 'custom', message: `${label} deve ser numérico.` });
    };
    if (unidade.tipoUnidade === 'SDU') numeric(unidade.quantidade, 'A quantidade', true);
    if (unidade.tipoUnidade === 'MDU') {
      if (unidade.nomeEdificio === '')
        ctx.addIssue({ code: 'custom', message: 'O nome do edifício é obrigatório.' });
      numeric(unidade.totalAndares, 'O total de andares', true);
      numeric(unidade.aptosPorAndar, 'O número de apartamentos por andar', true);
    }
  });
export type UnidadeDados = z.infer<typeof unidadeDadosSchema>;

export const unidadeFlow: FlowDefinition<typeof unidadeDadosSchema> = {
  key: 'hc',
  apiPath: 'unidade',
  store: 'unidade',
  label: 'Unidade',
  syncStatus: 'Sincronizando unidades',
  syncTag: 'SINCRONIZACAO UNIDADES',
  photoSlots: 3,
  deleteAfterUpload: true,
  noPhotosText: 'Não há fotos para esta unidade',
  dados: unidadeDadosSchema,
};
