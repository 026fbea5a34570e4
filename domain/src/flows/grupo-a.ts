// Flow grupoA — Grupo A: a Group A consumer (SPEC.md sections 3, 5).
import { booleanField } from '../form-fields.ts';
import { z } from '../zod.ts';
import { type FlowDefinition, optionalText, requiredText } from './flow.ts';
import { FLOW_META } from './meta.ts';
import { campo, registrosCsv, simNao } from '../export/columns.ts';

export const grupoADadosSchema = z.object({
  uc: requiredText('A UC é obrigatória.', 100),
  medidor: requiredText('O medidor é obrigatório.', 100),
  levantamentoAcompanhado: booleanField(),
  levantamentoAutorizado: booleanField(),
  observacao: optionalText(2000),
});

const COLUNAS_GRUPO_A = [
  campo('UC', 'uc'),
  campo('MEDIDOR', 'medidor'),
  simNao('LEVANTAMENTO_ACOMPANHADO', 'levantamentoAcompanhado'),
  simNao('LEVANTAMENTO_AUTORIZADO', 'levantamentoAutorizado'),
  campo('OBSERVACAO', 'observacao'),
];

export const grupoAFlow = {
  ...FLOW_META.grupoA,
  menuRoute: 'addGrupoA',
  apiPath: 'grupoa',
  byZona: true,
  byProject: { path: 'grupoa/:projeto', by: 'nome' },
  syncStatus: 'Sincronizando Grupo A',
  syncTag: 'SINCRONIZACAO GRUPO A',
  uploadErrorPrefix: 'Falha no envio da grupo A',
  photoSlots: 10,
  photoList: false,
  keepExif: true,
  deleteAfterUpload: true,
  recordPath: 'grupoa',
  noPhotosText: 'Não há fotos para este item',
  deleteConfirm: 'Confirma exclusão do item?',
  numbered: false,
  map: {
    layer: 'Grupo A',
    color: '#6a1b9a',
    hollowUntilCollected: false,
    alwaysListed: true,
    panelOrder: 4,
    paintOrder: 7,
  },
  exports: {
    csv: [registrosCsv('grupo-a', 'Grupo A', COLUNAS_GRUPO_A)],
    kml: { label: 'Grupo A', nome: { campo: 'uc' }, zip: false },
    colunas: COLUNAS_GRUPO_A,
  },
  dados: grupoADadosSchema,
} satisfies FlowDefinition<typeof grupoADadosSchema>;
