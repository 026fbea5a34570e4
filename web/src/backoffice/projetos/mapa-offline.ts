// The 'Mapa offline' section's words: a basemap package (domain/src/api/mapa-base.ts) as the back office shows it.
import type { MapaBase, MapaBaseTipo } from '@novus/domain/api/mapa-base';

export const MAPA_OFFLINE_TEXT = {
  novoProjeto: 'O mapa offline pode ser adicionado depois de gravar o projeto.',
  semMapa: 'Este projeto não tem mapa offline: os técnicos usam os blocos configurados no servidor.',
  ajuda:
    'Arquivo PMTiles v3, raster (PNG, JPEG, WebP ou AVIF) ou vetorial (MVT). ' +
    'É guardado na hora, sem precisar de Gravar, e substitui o mapa atual.',
  urlAjuda: 'Ou um PMTiles publicado na web, que o servidor lê por intervalos.',
  urlObrigatoria: 'Informe a URL de um arquivo PMTiles (http ou https).',
  carregarFalhou: 'Falha ao carregar o mapa offline.',
  envioFalhou: 'Falha ao enviar o mapa offline.',
  urlFalhou: 'Falha ao usar a URL do mapa offline.',
  remocaoFalhou: 'Falha ao remover o mapa offline.',
  semRede: 'Sem conexão com o servidor: o mapa offline não foi enviado.',
  enviado: 'Mapa offline guardado.',
  removido: 'Mapa offline removido.',
  cancelado: 'Envio cancelado: o mapa offline não foi alterado.',
  confirmarRemocao: 'Isso irá remover o mapa offline do projeto',
  verificando: 'Verificando o arquivo…',
  somenteLeitura: 'Somente o administrador pode alterar o mapa offline.',
} as const;

const TIPO_TEXT: Record<MapaBaseTipo, string> = {
  png: 'Raster PNG',
  jpg: 'Raster JPEG',
  webp: 'Raster WebP',
  avif: 'Raster AVIF',
  mvt: 'Vetorial (MVT)',
};

export function tipoText(tipo: MapaBaseTipo): string {
  return TIPO_TEXT[tipo];
}

const KB = 1024;
const MB = 1024 ** 2;
const GB = 1024 ** 3;

function decimal(value: number, digits: number): string {
  return value.toLocaleString('pt-BR', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** '468 bytes', '12,5 KB', '1,9 MB', '2,35 GB' (binary units, as the device's storage panel counts them). */
export function tamanhoText(bytes: number): string {
  if (bytes < KB) return bytes === 1 ? '1 byte' : `${bytes.toLocaleString('pt-BR')} bytes`;
  if (bytes < MB) return `${decimal(bytes / KB, 1)} KB`;
  if (bytes < GB) return `${decimal(bytes / MB, 1)} MB`;
  return `${decimal(bytes / GB, 2)} GB`;
}

/** '8 a 15'; a single zoom alone. */
export function zoomText(minZoom: number, maxZoom: number): string {
  return minZoom === maxZoom ? String(minZoom) : `${minZoom} a ${maxZoom}`;
}

function grau(value: number): string {
  return `${value.toLocaleString('pt-BR', { minimumFractionDigits: 4, maximumFractionDigits: 4 })}°`;
}

/** 'latitude 36,3585° a 36,7920°, longitude -118,7930° a -118,0574°' (decimal degrees, as GIS tools show them). */
export function limitesText({ oeste, sul, leste, norte }: MapaBase['limites']): string {
  return `latitude ${grau(sul)} a ${grau(norte)}, longitude ${grau(oeste)} a ${grau(leste)}`;
}

/** '1 bloco', '1.234 blocos'. */
export function blocosText(blocos: number): string {
  return blocos === 1 ? '1 bloco' : `${blocos.toLocaleString('pt-BR')} blocos`;
}

/** 'A', 'A e B', 'A, B e C'. */
export function listaText(nomes: readonly string[]): string {
  if (nomes.length <= 1) return nomes.join('');
  return `${nomes.slice(0, -1).join(', ')} e ${nomes[nomes.length - 1]}`;
}

export interface Cobertura {
  severity: 'success' | 'warning' | 'info';
  text: string;
}

/** Whether the package covers the project's zones: the warning names the zones left (partly) out. */
export function coberturaText(zonasDescobertas: readonly string[], zonasDoProjeto: number): Cobertura {
  if (zonasDescobertas.length > 0) {
    const zonas =
      zonasDescobertas.length === 1
        ? `a zona ${zonasDescobertas[0]}`
        : `as zonas ${listaText(zonasDescobertas)}`;
    return {
      severity: 'warning',
      text: `O mapa offline não cobre ${zonas}: os técnicos ficarão sem mapa offline fora dos limites do arquivo.`,
    };
  }
  if (zonasDoProjeto === 0)
    return { severity: 'info', text: 'O projeto ainda não tem zonas para conferir a cobertura do mapa.' };
  return {
    severity: 'success',
    text:
      zonasDoProjeto === 1
        ? 'O mapa offline cobre a zona do projeto.'
        : 'O mapa offline cobre todas as zonas do projeto.',
  };
}

/** 'Enviando: 42%' while the bytes go; then the server reads the archive's header and directories. */
export function progressoText(enviados: number, total: number): string {
  if (total <= 0 || enviados >= total) return MAPA_OFFLINE_TEXT.verificando;
  return `Enviando: ${percentual(enviados, total)}%`;
}

/** The upload's share sent, 0 to 100, for the progress bar. */
export function percentual(enviados: number, total: number): number {
  if (total <= 0) return 0;
  return Math.min(100, Math.floor((enviados / total) * 100));
}

const ENTIDADES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  copy: '©',
  nbsp: ' ',
};

/**
 * The archive's attribution as plain text: Protomaps and tippecanoe write it as HTML links
 * ('<a href="https://openstreetmap.org">© OpenStreetMap</a>'), shown here as words, never as markup.
 */
export function atribuicaoText(atribuicao: string | null): string {
  if (atribuicao === null) return 'Não informada';
  const text = atribuicao
    .replace(/<[^>]*>/g, '')
    .replace(/&(#\d+|#x[\da-f]+|[a-z]+);/gi, (entity, name: string) => {
      if (!name.startsWith('#')) return ENTIDADES[name.toLowerCase()] ?? entity;
      const code = /^#x/i.test(name) ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    })
    .replace(/\s+/g, ' ')
    .trim();
  return text === '' ? 'Não informada' : text;
}
