// The one canvas the supervisor map draws its points and clusters on: the size of the map's container, placed in
// a pane of its own above the zones, repainted after each move. No DOM node or Leaflet layer per point.
import { DomUtil, type Map as LeafletMap } from 'leaflet';
import { FLOW_BY_KEY } from '@novus/domain/flows/registry';
import { ALL_RANKS, colorOfRank, fluxoOfLayer, textColorOn } from './layers';
import { clusterLabel, paintPlan, POINT_RADIUS, type ViewFrame } from './view-frame';

const PANE = 'supervisor-pontos';
/** Above the zones (overlayPane, 400), below markers and popups (600, 700). */
const PANE_Z_INDEX = '450';
/** The thick dark ring around a point collected on more than one device. */
const CONFLITO_COLOR = '#212121';

export class PontosCanvas {
  private readonly canvas: HTMLCanvasElement;
  private sprites: { ratio: number; sprites: ReturnType<typeof makeSprites> } | null = null;

  constructor(private readonly map: LeafletMap) {
    const pane = map.getPane(PANE) ?? map.createPane(PANE);
    pane.style.zIndex = PANE_Z_INDEX;
    // clicks go to the map, which looks for the nearest drawn point itself
    pane.style.pointerEvents = 'none';
    // leaflet-zoom-hide: hidden while Leaflet animates a zoom, since the drawing would not scale with the tiles
    this.canvas = DomUtil.create('canvas', 'leaflet-zoom-hide', pane);
    this.canvas.setAttribute('aria-hidden', 'true');
  }

  /** Paints a frame; (originX, originY) is the world pixel at the container's top-left corner. */
  paint(frame: ViewFrame, originX: number, originY: number): void {
    const size = this.map.getSize();
    const ratio = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(size.x * ratio);
    this.canvas.height = Math.round(size.y * ratio);
    this.canvas.style.width = `${size.x}px`;
    this.canvas.style.height = `${size.y}px`;
    DomUtil.setPosition(this.canvas, this.map.containerPointToLayerPoint([0, 0]));
    const context = this.canvas.getContext('2d');
    if (context === null) return;
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, size.x, size.y);
    paintClusters(context, frame, originX, originY);
    if (this.sprites === null || this.sprites.ratio !== ratio)
      this.sprites = { ratio, sprites: makeSprites(ratio) };
    paintPoints(context, frame, this.sprites.sprites, ratio, {
      x: originX,
      y: originY,
      width: size.x,
      height: size.y,
    });
  }

  clear(): void {
    this.canvas.getContext('2d')?.clearRect(0, 0, this.canvas.width, this.canvas.height);
  }

  remove(): void {
    this.canvas.remove();
  }
}

function paintClusters(
  context: CanvasRenderingContext2D,
  frame: ViewFrame,
  originX: number,
  originY: number,
) {
  const { result } = frame;
  context.textAlign = 'center';
  context.textBaseline = 'middle';
  context.font = '600 12px Roboto, Helvetica, Arial, sans-serif';
  for (let k = 0; k < frame.clusterX.length; k += 1) {
    const fluxo = fluxoOfLayer(result.clusterLayer[k] ?? -1);
    if (fluxo === undefined) continue;
    const { color } = FLOW_BY_KEY[fluxo].map;
    const x = (frame.clusterX[k] ?? 0) - originX;
    const y = (frame.clusterY[k] ?? 0) - originY;
    context.beginPath();
    context.arc(x, y, frame.clusterR[k] ?? 0, 0, 2 * Math.PI);
    context.fillStyle = color;
    context.fill();
    context.lineWidth = 3;
    context.strokeStyle = 'rgba(255, 255, 255, 0.85)';
    context.stroke();
    context.fillStyle = textColorOn(color);
    context.fillText(clusterLabel(result.clusterCount[k] ?? 0), x, y);
  }
}

interface Sprite {
  image: HTMLCanvasElement;
  /** Device pixels from the sprite's corner to its centre. */
  half: number;
}

/** One disc drawn once at the screen's pixel ratio; each point is then a copy of it (drawImage). */
function makeSprite(
  ratio: number,
  radius: number,
  lineWidth: number,
  stroke: string,
  fill: string | null,
): Sprite {
  const size = Math.ceil((radius + lineWidth / 2 + 1) * 2 * ratio);
  const image = document.createElement('canvas');
  image.width = size;
  image.height = size;
  const context = image.getContext('2d');
  if (context !== null) {
    context.scale(ratio, ratio);
    context.beginPath();
    context.arc(size / 2 / ratio, size / 2 / ratio, radius, 0, 2 * Math.PI);
    if (fill !== null) {
      context.fillStyle = fill;
      context.fill();
    }
    context.lineWidth = lineWidth;
    context.strokeStyle = stroke;
    context.stroke();
  }
  return { image, half: size / 2 };
}

/** The sprite of each paint rank (the layers' and the review states'), and of the conflict ring. */
function makeSprites(ratio: number): { ranks: Sprite[]; conflito: Sprite } {
  const ranks = Array.from({ length: ALL_RANKS }, (_, rank) => {
    const { color, hollow } = colorOfRank(rank);
    // hollow: the ring only (stroke), in the layer's colour; filled: the colour with a white edge
    return hollow
      ? makeSprite(ratio, POINT_RADIUS - 0.5, 2.5, color, null)
      : makeSprite(ratio, POINT_RADIUS, 1.5, '#ffffff', color);
  });
  return { ranks, conflito: makeSprite(ratio, POINT_RADIUS + 3, 4, CONFLITO_COLOR, null) };
}

/**
 * Points are stamped from sprites in paint order (layers.ts), conflict rings first, one stamp per distinct pixel
 * and rank: a path of 100,000 overlapping arcs takes the rasteriser seconds, stamps take milliseconds.
 */
function paintPoints(
  context: CanvasRenderingContext2D,
  frame: ViewFrame,
  sprites: { ranks: Sprite[]; conflito: Sprite },
  ratio: number,
  origin: { x: number; y: number; width: number; height: number },
) {
  const plan = paintPlan(frame, origin.x, origin.y, origin.width, origin.height, ALL_RANKS);
  context.setTransform(1, 0, 0, 1, 0, 0);
  const stamp = (positions: Int32Array, sprite: Sprite) => {
    for (let i = 0; i < positions.length; i += 2) {
      const x = Math.round((positions[i] ?? 0) * ratio - sprite.half);
      const y = Math.round((positions[i + 1] ?? 0) * ratio - sprite.half);
      context.drawImage(sprite.image, x, y);
    }
  };
  stamp(plan.conflito, sprites.conflito);
  plan.ranks.forEach((positions, rank) => {
    const sprite = sprites.ranks[rank];
    if (sprite !== undefined) stamp(positions, sprite);
  });
}
