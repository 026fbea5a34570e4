// Flow hc — Unidade: a unit or property (SPEC.md sections 2–5).
import { TIPOS_EDIFICACAO, TIPOS_IMOVEL, TIPOS_UNIDADE } from '../lists/unidade.ts';
import { emptyToUndefined } from '../form-fields.ts';
import { z } from '../zod.ts';
import { type FlowDefinition, optionalText } from './flow.ts';
import { FLOW_META } from './meta.ts';
import { campo, registrosCsv } from '../export/columns.ts';

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
      .refine((numero) => numero === '' || digits.test(numero), { message: 'O número deve ser numérico.' })
      .refine((numero) => numero.length <= 10, { message: 'O número deve ter no máximo 10 dígitos.' }),
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
    // Each rule names its field (path), so the form shows the message under it.
    const fail = (path: keyof typeof unidade, message: string) =>
      ctx.addIssue({ code: 'custom', path: [path], message });
    if (!TIPOS_IMOVEL[unidade.tipoEdificacao].includes(unidade.tipoImovel)) {
      fail('tipoImovel', 'Tipo de imóvel inválido para o tipo de edificação.');
    }
    const numeric = (
      path: 'quantidade' | 'totalAndares' | 'aptosPorAndar',
      required: string,
      invalid: string,
    ) => {
      const value = unidade[path];
      if (value === '') fail(path, required);
      else if (!digits.test(value)) fail(path, invalid);
    };
    if (unidade.tipoUnidade === 'SDU') {
      numeric('quantidade', 'A quantidade é obrigatória.', 'A quantidade deve ser numérica.');
    }
    if (unidade.tipoUnidade === 'MDU') {
      if (unidade.nomeEdificio === '') fail('nomeEdificio', 'O nome do edifício é obrigatório.');
      numeric('totalAndares', 'O total de andares é obrigatório.', 'O total de andares deve ser numérico.');
      numeric(
        'aptosPorAndar',
        'O número de apartamentos por andar é obrigatório.',
        'O número de apartamentos por andar deve ser numérico.',
      );
    }
  });
export type UnidadeDados = z.infer<typeof unidadeDadosSchema>;

const COLUNAS_UNIDADE = [
  campo('TIPO_UNIDADE', 'tipoUnidade'),
  campo('TIPO_EDIFICACAO', 'tipoEdificacao'),
  campo('TIPO_IMOVEL', 'tipoImovel'),
  campo('NUMERO', 'numero'),
  campo('COMPLEMENTO_NUMERO', 'complementoNumero'),
  campo('COMPLEMENTO1', 'complemento1'),
  campo('COMPLEMENTO2', 'complemento2'),
  campo('COMPLEMENTO3', 'complemento3'),
  campo('QUANTIDADE', 'quantidade'),
  campo('NOME_EDIFICIO', 'nomeEdificio'),
  campo('NOME_BLOCO', 'nomeBloco'),
  campo('TOTAL_ANDARES', 'totalAndares'),
  campo('APTOS_POR_ANDAR', 'aptosPorAndar'),
  campo('POSTE', 'drop'),
  campo('OBSERVACAO', 'observacao'),
];

export const unidadeFlow = {
  ...FLOW_META.hc,
  menuRoute: 'addUnidades',
  apiPath: 'unidade',
  byZona: true,
  byProject: { path: 'unidade/:projeto', by: 'nome' },
  syncStatus: 'Sincronizando unidades',
  syncTag: 'SINCRONIZACAO UNIDADES',
  uploadErrorPrefix: 'Falha no envio da unidade',
  photoSlots: 3,
  photoList: false,
  keepExif: false,
  deleteAfterUpload: true,
  recordPath: 'unidade',
  noPhotosText: 'Não há fotos para esta unidade',
  deleteConfirm: 'Confirma exclusão da unidade?',
  numbered: false,
  map: {
    layer: 'Unidades',
    color: '#1565c0',
    hollowUntilCollected: false,
    alwaysListed: true,
    panelOrder: 1,
    paintOrder: 9,
  },
  exports: {
    csv: [registrosCsv('unidades', 'Unidades', COLUNAS_UNIDADE)],
    kml: { label: 'Unidades', nome: { campo: 'numero' }, zip: false },
    colunas: COLUNAS_UNIDADE,
  },
  dados: unidadeDadosSchema,
} satisfies FlowDefinition<typeof unidadeDadosSchema>;
