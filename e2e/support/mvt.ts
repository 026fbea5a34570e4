// A small Mapbox Vector Tile (MVT 2.1) encoder for tests (issue 23): features in degrees, projected into each tile,
// written as the protobuf the spec describes (layers of features with tags and geometry commands), so the e2e can
// make a vector basemap package of its own over a Brazilian zone. No dependency: the protobuf is written by hand.

export type Lugar = [lng: number, lat: number];
export type Propriedades = Record<string, string | number | boolean>;

export type Geometria =
  | { tipo: 'ponto'; ponto: Lugar }
  | { tipo: 'linha'; linha: Lugar[] }
  /** Rings: the first the outline, the others holes. */
  | { tipo: 'poligono'; aneis: Lugar[][] };

export interface Elemento {
  geometria: Geometria;
  props: Propriedades;
}

export interface CamadaMvt {
  nome: string;
  elementos: Elemento[];
}

const EXTENT = 4096;

// ---- protobuf ----

class Escritor {
  private readonly bytes: number[] = [];

  varint(value: number): this {
    let v = value;
    while (v >= 0x80) {
      this.bytes.push((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    this.bytes.push(v);
    return this;
  }

  tag(campo: number, tipo: 0 | 1 | 2): this {
    return this.varint(campo * 8 + tipo);
  }

  uint(campo: number, value: number): this {
    return this.tag(campo, 0).varint(value);
  }

  bytesField(campo: number, conteudo: Uint8Array): this {
    this.tag(campo, 2).varint(conteudo.length);
    for (const b of conteudo) this.bytes.push(b);
    return this;
  }

  string(campo: number, texto: string): this {
    return this.bytesField(campo, new TextEncoder().encode(texto));
  }

  double(campo: number, value: number): this {
    const buffer = new DataView(new ArrayBuffer(8));
    buffer.setFloat64(0, value, true);
    this.tag(campo, 1);
    for (let i = 0; i < 8; i++) this.bytes.push(buffer.getUint8(i));
    return this;
  }

  packed(campo: number, valores: number[]): this {
    const dentro = new Escritor();
    for (const v of valores) dentro.varint(v);
    return this.bytesField(campo, dentro.fim());
  }

  fim(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

const zigzag = (n: number) => (n << 1) ^ (n >> 31);

// ---- geometry ----

/** A place in the tile's coordinates (0..EXTENT across the tile, y down). */
function projetar([lng, lat]: Lugar, z: number, x: number, y: number): [number, number] {
  const n = 2 ** z;
  const rad = (lat * Math.PI) / 180;
  const px = ((lng + 180) / 360) * n;
  const py = ((1 - Math.asinh(Math.tan(rad)) / Math.PI) / 2) * n;
  return [Math.round((px - x) * EXTENT), Math.round((py - y) * EXTENT)];
}

/** Twice the signed area in tile coordinates: positive for an outline as MVT wants it (clockwise on screen). */
function area(anel: [number, number][]): number {
  let soma = 0;
  for (let i = 0; i < anel.length; i++) {
    const [x1, y1] = anel[i] ?? [0, 0];
    const [x2, y2] = anel[(i + 1) % anel.length] ?? [0, 0];
    soma += x1 * y2 - x2 * y1;
  }
  return soma;
}

function comandos(
  geometria: Geometria,
  z: number,
  x: number,
  y: number,
): { tipo: number; geometria: number[] } {
  const saida: number[] = [];
  let cx = 0;
  let cy = 0;
  const ir = (pontos: [number, number][], fechar: boolean) => {
    pontos.forEach(([px, py], i) => {
      if (i === 0) saida.push(1 | (1 << 3));
      else if (i === 1) saida.push(2 | ((pontos.length - 1) << 3));
      saida.push(zigzag(px - cx), zigzag(py - cy));
      cx = px;
      cy = py;
    });
    if (fechar) saida.push(7 | (1 << 3));
  };
  const p = (lugar: Lugar) => projetar(lugar, z, x, y);
  switch (geometria.tipo) {
    case 'ponto':
      ir([p(geometria.ponto)], false);
      return { tipo: 1, geometria: saida };
    case 'linha':
      ir(geometria.linha.map(p), false);
      return { tipo: 2, geometria: saida };
    case 'poligono':
      geometria.aneis.forEach((anel, i) => {
        // the ring without its closing repeat; an outline has positive area, a hole negative
        let pontos = anel.map(p);
        const [primeiro] = pontos;
        const ultimo = pontos.at(-1);
        if (primeiro && ultimo && primeiro[0] === ultimo[0] && primeiro[1] === ultimo[1])
          pontos = pontos.slice(0, -1);
        if (area(pontos) > 0 !== (i === 0)) pontos.reverse();
        ir(pontos, true);
      });
      return { tipo: 3, geometria: saida };
  }
}

// ---- tiles ----

/** One vector tile at z/x/y holding every element of every layer (the renderer clips what lies outside). */
export function encodeMvt(camadas: CamadaMvt[], z: number, x: number, y: number): Uint8Array {
  const tile = new Escritor();
  for (const camada of camadas) {
    const chaves: string[] = [];
    const valores: (string | number | boolean)[] = [];
    const indice = <T>(lista: T[], item: T) => {
      const i = lista.indexOf(item);
      if (i >= 0) return i;
      lista.push(item);
      return lista.length - 1;
    };
    const layer = new Escritor().uint(15, 2).string(1, camada.nome);
    camada.elementos.forEach((elemento, id) => {
      const tags = Object.entries(elemento.props).flatMap(([chave, valor]) => [
        indice(chaves, chave),
        indice(valores, valor),
      ]);
      const { tipo, geometria } = comandos(elemento.geometria, z, x, y);
      const feature = new Escritor()
        .uint(1, id + 1)
        .packed(2, tags)
        .uint(3, tipo)
        .packed(4, geometria);
      layer.bytesField(2, feature.fim());
    });
    for (const chave of chaves) layer.string(3, chave);
    for (const valor of valores) {
      const value = new Escritor();
      if (typeof valor === 'string') value.string(1, valor);
      else if (typeof valor === 'boolean') value.uint(7, valor ? 1 : 0);
      else if (Number.isInteger(valor) && valor >= 0) value.uint(5, valor);
      else value.double(3, valor);
      layer.bytesField(4, value.fim());
    }
    layer.uint(5, EXTENT);
    tile.bytesField(3, layer.fim());
  }
  return tile.fim();
}

/** A rectangle [west, south, east, north] as a polygon ring. */
export function retangulo([oeste, sul, leste, norte]: [number, number, number, number]): Lugar[] {
  return [
    [oeste, sul],
    [leste, sul],
    [leste, norte],
    [oeste, norte],
    [oeste, sul],
  ];
}
