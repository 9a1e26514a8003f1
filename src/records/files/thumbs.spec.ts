import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { parseThumbSize, renderThumb } from './thumbs';

describe('thumbs', () => {
  it.each([
    ['100x100', { width: 100, height: 100, mode: 'center' }],
    ['100x50t', { width: 100, height: 50, mode: 'top' }],
    ['100x50b', { width: 100, height: 50, mode: 'bottom' }],
    ['100x50f', { width: 100, height: 50, mode: 'fit' }],
    ['0x50', { width: 0, height: 50, mode: 'center' }],
    ['80x0', { width: 80, height: 0, mode: 'center' }],
  ])('parses %s', (size, expected) => {
    expect(parseThumbSize(size)).toEqual(expected);
  });

  it.each(['', '0x0', '10', 'x10', '10x10x', '10x10z', '0x10f', '-1x10', '99999x1'])('rejects %j', (size) => {
    expect(parseThumbSize(size)).toBeUndefined();
  });

  it('renders each mode at the right size, in the original format', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chorus-thumbs-'));
    try {
      const original = join(dir, 'a.jpg');
      writeFileSync(
        original,
        await sharp({ create: { width: 400, height: 200, channels: 3, background: '#888' } })
          .jpeg()
          .toBuffer(),
      );
      const cases: [string, number, number][] = [
        ['100x100', 100, 100],
        ['100x100f', 100, 50],
        ['0x50', 100, 50],
        ['80x0', 80, 40],
        ['50x20t', 50, 20],
      ];
      for (const [size, width, height] of cases) {
        const meta = await sharp(await renderThumb(original, parseThumbSize(size)!)).metadata();
        expect([size, meta.format, meta.width, meta.height]).toEqual([size, 'jpeg', width, height]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
