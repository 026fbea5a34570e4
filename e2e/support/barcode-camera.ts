// A phone camera pointed at a label, for Chromium's fake capture (--use-file-for-fake-video-capture): a Y4M video of
// a Code 128 drawn with bwip-js, first with a thumb over the middle of the code (unreadable, so the scanner stays
// open long enough to be looked at), then uncovered.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import bwipjs from 'bwip-js/node';

const WIDTH = 480;
const HEIGHT = 360;
/** Frames a second in the file; Chromium plays it at this pace, from the start each time the camera opens. */
const FPS = 2;

export interface LabelVideo {
  file: string;
  /** How long the code stays covered after the camera opens. */
  coveredSeconds: number;
}

/** The Y4M file and the Chromium flags that make it the camera, answering getUserMedia without asking. */
export function fakeCameraArgs(video: LabelVideo): string[] {
  return [
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
    `--use-file-for-fake-video-capture=${video.file}`,
  ];
}

export function writeCode128Video(
  text: string,
  { coveredSeconds = 8, readableSeconds = 6 } = {},
): LabelVideo {
  // bwip-js 'raw': the symbol as bar and space widths in modules, starting with a bar.
  const [symbol] = bwipjs.raw({ bcid: 'code128', text });
  if (!symbol || !('sbs' in symbol)) throw new Error('bwip-js gave no bars for Code 128');
  const modules = symbol.sbs.reduce((sum, width) => sum + width, 0);
  const scale = Math.floor((WIDTH - 40) / (modules + 20)); // 10 modules of quiet zone each side
  if (scale < 2) throw new Error(`'${text}' is too long for a ${WIDTH}px frame`);
  const left = Math.floor((WIDTH - modules * scale) / 2);
  const top = Math.floor(HEIGHT * 0.3);
  const bottom = Math.floor(HEIGHT * 0.7);

  const clear = new Uint8Array(WIDTH * HEIGHT).fill(235); // a label's white, not pure
  let x = left;
  symbol.sbs.forEach((width, index) => {
    if (index % 2 === 0) {
      for (let row = top; row < bottom; row += 1)
        clear.fill(20, row * WIDTH + x, row * WIDTH + x + width * scale);
    }
    x += width * scale;
  });
  const covered = Uint8Array.from(clear);
  const thumb = [Math.floor(WIDTH * 0.35), Math.floor(WIDTH * 0.65)];
  for (let row = top - 20; row < bottom + 20; row += 1)
    covered.fill(150, row * WIDTH + thumb[0], row * WIDTH + thumb[1]);

  const chroma = new Uint8Array((WIDTH / 2) * (HEIGHT / 2) * 2).fill(128); // grey: U and V planes at their middle
  const frame = (luma: Uint8Array) => Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
  const frames = [
    Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F${FPS}:1 Ip A1:1 C420jpeg\n`),
    ...Array.from({ length: coveredSeconds * FPS }, () => frame(covered)),
    ...Array.from({ length: readableSeconds * FPS }, () => frame(clear)),
  ];
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'novus-leitor-')), 'etiqueta.y4m');
  fs.writeFileSync(file, Buffer.concat(frames));
  return { file, coveredSeconds };
}
