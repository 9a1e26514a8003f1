import { readFile } from 'node:fs/promises';
import sharp from 'sharp';

/** A parsed thumb size: `WxH` (crop centre), `WxHt` (crop top), `WxHb` (crop bottom), `WxHf` (fit), `0xH`, `Wx0`. */
export interface ThumbSize {
  readonly width: number;
  readonly height: number;
  readonly mode: 'center' | 'top' | 'bottom' | 'fit';
}

export function parseThumbSize(size: string): ThumbSize | undefined {
  const match = /^(\d{1,4})x(\d{1,4})([tbf]?)$/.exec(size);
  if (!match) {
    return undefined;
  }
  const width = Number(match[1]);
  const height = Number(match[2]);
  if ((width === 0 && height === 0) || ((width === 0 || height === 0) && match[3] !== '')) {
    return undefined;
  }
  const mode = ({ t: 'top', b: 'bottom', f: 'fit', '': 'center' } as const)[match[3] as 't' | 'b' | 'f' | ''];
  return { width, height, mode };
}

/** Renders the thumb of an image file in its own format. */
export async function renderThumb(originalPath: string, size: ThumbSize): Promise<Buffer> {
  const input = await readFile(originalPath);
  const image = sharp(input, { animated: false, limitInputPixels: 100_000_000 });
  const metadata = await image.metadata();
  const resize =
    size.width === 0 || size.height === 0
      ? { width: size.width || undefined, height: size.height || undefined, fit: 'inside' as const }
      : size.mode === 'fit'
        ? { width: size.width, height: size.height, fit: 'inside' as const }
        : {
            width: size.width,
            height: size.height,
            fit: 'cover' as const,
            position: size.mode === 'top' ? 'top' : size.mode === 'bottom' ? 'bottom' : 'centre',
          };
  const format =
    metadata.format === 'jpeg' || metadata.format === 'gif' || metadata.format === 'webp'
      ? metadata.format
      : 'png';
  return image.rotate().resize(resize).toFormat(format).toBuffer();
}
