// Flow grupoA — Grupo A: a Group A consumer (SPEC.md sections 3, 5).
import { booleanField } from '../form-fields.ts';
import { z } from '../zod.ts';
import { type FlowDefinition, optionalText, requiredText } from './flow.ts';

export const grupoADadosSchema = z.object({
  uc: requiredText('A UC é obrigatória.', 100),
  medidor: requiredText('O medidor é obrigatório.', 100),
  levantamentoAcompanhado: booleanField(),
  levantamentoAutorizado: booleanField(),
  observacao: optionalText(2000),
});

export const grupoAFlow = {
  key: 'grupoA',
  labels: { menu: 'Grupo A', form: 'Grupo A', banner: 'Grupo A', record: 'Grupo A' },
  menuRoute: 'addGrupoA',
  store: 'grupoA',
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
  lifecycle: 'coleta',
  numbered: false,
  dados: grupoADadosSchema,
} satisfies FlowDefinition<typeof grupoADadosSchema>;
