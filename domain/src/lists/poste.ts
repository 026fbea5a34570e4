// Lists of values of the pole form (SPEC.md section 3, 'Lists of values').
export const TIPOS_POSTE = [
  'CONCRETO DUPLO T',
  'CONCRETO CIRCULAR',
  'MADEIRA',
  'FERRO',
  'CAIXA SUBTERRANEA',
  'TRILHO',
  'FIBRA',
] as const;
export const TIPO_POSTE_PADRAO = 'CONCRETO DUPLO T';

export const ALTURAS_POSTE = [
  '8',
  '9',
  '10',
  '10.5',
  '11',
  '12',
  '13',
  '14',
  '15',
  '16',
  '18',
  '20',
  '22',
  'OUTROS',
] as const;

/** From 100 to 3000 daN; the spec does not show the intermediate values, these are the usual nominal loads. */
export const CARGAS_POSTE = [
  '100',
  '150',
  '200',
  '300',
  '400',
  '600',
  '800',
  '1000',
  '1500',
  '2000',
  '3000',
  'OUTROS',
] as const;

export const TIPOS_REDE_ELETRICA = ['MISTA', 'MEDIA TENSAO', 'BAIXA TENSAO', 'NAO POSSUI'] as const;

export const EQUIPAMENTOS_REDE = [
  'NAO POSSUI',
  'TRANSFORMADOR',
  'CHAVE FUSIVEL',
  'CHAVE FACA',
  'CHAVE A OLEO',
  'RELIGADOR',
  'BANCO CAPACITOR',
  'REGULADOR DE TENSAO',
] as const;
export const EQUIPAMENTO_PADRAO = 'NAO POSSUI';
