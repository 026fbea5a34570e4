// Flow lpt — LPT: a point drawn on the map with its houses count (SPEC.md sections 3, 4, 5).
import { booleanField } from '../form-fields.ts';
import { z } from '../zod.ts';
import { type FlowDefinition, optionalText } from './flow.ts';
import { FLOW_META } from './meta.ts';
import { campo, registrosCsv, simNao } from '../export/columns.ts';

export const lptDadosSchema = z.object({
  listaConcessionaria: booleanField(),
  qtdCasas: z.preprocess(
    (value) => (value === undefined || value === null ? '' : String(value).trim()),
    z
      .string()
      .min(1, 'Qtd. Casas é obrigatório.')
      .regex(/^\d+$/, 'Qtd. Casas deve ser um número de 1 a 99.')
      .refine((text) => Number(text) >= 1 && Number(text) <= 99, {
        message: 'Qtd. Casas deve ser um número de 1 a 99.',
      }),
  ),
  observacao: optionalText(2000),
});

const COLUNAS_LPT = [
  simNao('LISTA_CONCESSIONARIA', 'listaConcessionaria'),
  campo('QTD_CASAS', 'qtdCasas'),
  campo('OBSERVACAO', 'observacao'),
];

export const lptFlow = {
  ...FLOW_META.lpt,
  menuRoute: 'addLPT',
  apiPath: 'lpt',
  byZona: true,
  byProject: null,
  syncStatus: 'Sincronizando LPT',
  syncTag: 'SINCRONIZACAO LPT',
  uploadErrorPrefix: 'Falha no envio do LPT',
  photoSlots: 10,
  photoList: false,
  keepExif: false,
  deleteAfterUpload: true,
  recordPath: 'lpt',
  noPhotosText: 'Não há fotos para este LPT',
  deleteConfirm: 'Confirma exclusão do ponto?',
  numbered: false,
  map: {
    layer: 'LPT',
    color: '#ef6c00',
    hollowUntilCollected: true,
    alwaysListed: false,
    panelOrder: 7,
    paintOrder: 4,
  },
  exports: {
    csv: [registrosCsv('lpt', 'LPT', COLUNAS_LPT)],
    kml: { label: 'LPT', nome: { campo: 'qtdCasas' }, zip: false },
    colunas: COLUNAS_LPT,
  },
  dados: lptDadosSchema,
} satisfies FlowDefinition<typeof lptDadosSchema>;
