// Flow poste — Poste: a pole (SPEC.md sections 2–5).
import {
  ALTURAS_POSTE,
  CARGAS_POSTE,
  EQUIPAMENTOS_REDE,
  TIPOS_POSTE,
  TIPOS_REDE_ELETRICA,
} from '../lists/poste.ts';
import { booleanField } from '../form-fields.ts';
import { z } from '../zod.ts';
import { type FlowDefinition, optionalText } from './flow.ts';
import { FLOW_META } from './meta.ts';
import { campo, decimal, registrosCsv, simNao } from '../export/columns.ts';

export const posteDadosSchema = z
  .object({
    tipo: z.enum(TIPOS_POSTE, { error: 'O tipo do poste é obrigatório.' }),
    altura: z.enum(ALTURAS_POSTE, { error: 'A altura é obrigatória.' }),
    carga: z.enum(CARGAS_POSTE, { error: 'A carga é obrigatória.' }),
    tipoRedeEletrica: z.enum(TIPOS_REDE_ELETRICA, { error: 'O tipo de rede elétrica é obrigatório.' }),
    aterramento: booleanField(),
    equipamentoRedeEnergia: z.enum(EQUIPAMENTOS_REDE, {
      error: 'O equipamento de rede de energia é obrigatório.',
    }),
    observacao: optionalText(2000),
  })
  .refine((poste) => (poste.altura !== 'OUTROS' && poste.carga !== 'OUTROS') || poste.observacao !== '', {
    message: 'Informe a observação quando a altura ou a carga for OUTROS.',
    path: ['observacao'],
  });
export type PosteDados = z.infer<typeof posteDadosSchema>;

const QTD_DROP = { header: 'QTD_DROP', valor: { derivado: 'qtdDrop' } } as const;

const COLUNAS_POSTE = [
  campo('TIPO', 'tipo'),
  // 10.5 m is one of the heights.
  decimal('ALTURA', 'altura'),
  campo('CARGA', 'carga'),
  campo('TIPO_REDE_ELETRICA', 'tipoRedeEletrica'),
  simNao('ATERRAMENTO', 'aterramento'),
  campo('EQUIPAMENTO_REDE_ENERGIA', 'equipamentoRedeEnergia'),
  QTD_DROP,
  campo('OBSERVACAO', 'observacao'),
];

export const posteFlow = {
  ...FLOW_META.poste,
  menuRoute: 'addPostes',
  apiPath: 'poste',
  byZona: true,
  byProject: { path: 'poste/getByNomeProjeto/:projeto', by: 'nome' },
  syncStatus: 'Sincronizando postes',
  syncTag: 'SINCRONIZACAO POSTES',
  uploadErrorPrefix: 'Falha no envio do poste',
  photoSlots: 10,
  photoList: false,
  keepExif: false,
  deleteAfterUpload: true,
  recordPath: 'poste',
  noPhotosText: 'Não há fotos para este poste',
  deleteConfirm: 'Confirma exclusão do poste?',
  numbered: false,
  map: {
    layer: 'Postes',
    color: '#c62828',
    hollowUntilCollected: false,
    alwaysListed: true,
    panelOrder: 2,
    paintOrder: 8,
  },
  exports: {
    csv: [
      registrosCsv('postes', 'Postes', COLUNAS_POSTE),
      registrosCsv('postes-simplificado', 'Postes simplificado', [
        campo('TIPO', 'tipo'),
        decimal('ALTURA', 'altura'),
        QTD_DROP,
      ]),
    ],
    kml: { label: 'Postes', nome: { registro: 'tecnico' }, zip: false },
    colunas: COLUNAS_POSTE,
  },
  dados: posteDadosSchema,
} satisfies FlowDefinition<typeof posteDadosSchema>;
