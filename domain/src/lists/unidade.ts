// Lists of values of the unit form (SPEC.md section 3, 'Lists of values').
export const TIPOS_UNIDADE = ['SDU', 'MDU', 'VAZIO', 'FUNDOS'] as const;
export type TipoUnidade = (typeof TIPOS_UNIDADE)[number];

export const TIPO_UNIDADE_LABELS: Record<TipoUnidade, string> = {
  SDU: 'SDU (casa)',
  MDU: 'MDU (edifício)',
  VAZIO: 'Vazio',
  FUNDOS: 'Fundos',
};

export const TIPOS_EDIFICACAO = ['Residencial', 'Comercial', 'Especial', 'Vazio', 'Fundos'] as const;
export type TipoEdificacao = (typeof TIPOS_EDIFICACAO)[number];

export const TIPOS_IMOVEL: Record<TipoEdificacao, readonly string[]> = {
  Residencial: ['RESIDENCIAL', 'PENSAO', 'FLAT'],
  Comercial: [
    'agência de automóveis',
    'bar',
    'buffet',
    'casa noturna',
    'comércio em geral',
    'escritório de serviços',
    'imobiliária',
    'indústria',
    'instituição financeira',
    'lanchonete',
    'oficina',
    'padaria',
    'restaurante',
  ],
  // The spec lists these 18 of the 25 values and says the rest are not shown.
  Especial: [
    'associação/sindicato',
    'clínicas',
    'consultórios',
    'creche',
    'escolas',
    'estacionamento',
    'flat',
    'hospitais',
    'hotel',
    'instituição esportiva',
    'médico/hospitalar',
    'motel',
    'órgão público',
    'posto de gasolina',
    'serviços',
    'shopping',
    'supermercado',
    'universidade/faculdade',
  ],
  Vazio: ['VAZIO'],
  Fundos: ['FUNDOS'],
};

/** Choosing Residencial presets tipoImovel to RESIDENCIAL (SPEC.md section 4). */
export const TIPO_IMOVEL_PRESET: Partial<Record<TipoEdificacao, string>> = {
  Residencial: 'RESIDENCIAL',
  Vazio: 'VAZIO',
  Fundos: 'FUNDOS',
};
