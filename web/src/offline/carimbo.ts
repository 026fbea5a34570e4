// The photo stamp (issue 26): what the band burned into each photo says, so the utility and the regulator see on the
// photo itself when, where and by whom it was taken. Pure text: photo-render.ts draws it.

/** The time zone of the stamp's clock, whatever the phone's own setting. */
export const CARIMBO_FUSO = 'America/Sao_Paulo';

export interface CarimboDados {
  /** When the record was taken (epoch ms). */
  dataHora: number;
  coordenadas: { lat: number; lng: number };
  /** GPS accuracy in metres, when the phone gave one. */
  precisao?: number;
  tecnico: string;
  projeto: string;
  /** The flow's label as its screens name one record ('Poste', 'Uso Mútuo / IP'). */
  fluxo: string;
}

const RELOGIO = new Intl.DateTimeFormat('pt-BR', {
  timeZone: CARIMBO_FUSO,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** DD/MM/YYYY HH:mm:ss in São Paulo's time. */
export function dataHoraCarimbo(instante: number): string {
  const parte = Object.fromEntries(
    RELOGIO.formatToParts(instante).map(({ type, value }) => [type, value]),
  ) as Record<Intl.DateTimeFormatPartTypes, string>;
  return `${parte.day}/${parte.month}/${parte.year} ${parte.hour}:${parte.minute}:${parte.second}`;
}

/** '± 5 m' (whole metres, at least 1), or that the phone gave none. */
function precisaoCarimbo(precisao: number | undefined): string {
  if (precisao === undefined || !Number.isFinite(precisao) || precisao < 0) return 'precisão desconhecida';
  return `± ${Math.max(1, Math.round(precisao))} m`;
}

/**
 * The band's lines: when and where (six decimals, about 10 cm, with the GPS accuracy), then who, for which project
 * and flow. Names are kept as typed (accents included); blank ones are left out.
 */
export function linhasCarimbo(dados: CarimboDados): string[] {
  const { lat, lng } = dados.coordenadas;
  const quem = [dados.tecnico, dados.projeto, dados.fluxo].map((parte) => parte.trim()).filter(Boolean);
  return [
    `${dataHoraCarimbo(dados.dataHora)}  Lat ${lat.toFixed(6)}  Lng ${lng.toFixed(6)}  ${precisaoCarimbo(dados.precisao)}`,
    quem.join(' · '),
  ];
}
