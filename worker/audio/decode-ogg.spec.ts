import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { AudioDecodeError } from './decode-errors';
import { oggPackets } from './decode-ogg';
import { opusPacketSamples48k } from './decode-opus';

/** One Ogg page holding `segments` (each ≤ 255 bytes; a 255-byte segment continues onto the next one). */
function page(options: { serial: number; flags?: number; granule?: number; segments: Buffer[] }): Buffer {
  const header = Buffer.alloc(27 + options.segments.length);
  header.write('OggS', 0, 'ascii');
  header[5] = options.flags ?? 0;
  header.writeBigInt64LE(BigInt(options.granule ?? -1), 6);
  header.writeUInt32LE(options.serial, 14);
  header[26] = options.segments.length;
  options.segments.forEach((segment, i) => (header[27 + i] = segment.length));
  return Buffer.concat([header, ...options.segments]);
}

describe('oggPackets', () => {
  it('joins lacing values into packets, across pages, per logical stream', () => {
    const long = Buffer.alloc(300, 7); // 255 + 45: spans two pages
    const bytes = Buffer.concat([
      page({ serial: 1, flags: 0x02, granule: 0, segments: [Buffer.from('head-a')] }),
      page({ serial: 2, flags: 0x02, granule: 0, segments: [Buffer.from('head-b')] }),
      page({ serial: 1, granule: -1, segments: [long.subarray(0, 255)] }),
      Buffer.from('junk between pages'),
      page({ serial: 2, flags: 0x04, granule: 99, segments: [Buffer.from('b1')] }),
      page({
        serial: 1,
        flags: 0x01 | 0x04,
        granule: 960,
        segments: [long.subarray(255), Buffer.from('a2')],
      }),
    ]);
    const packets = [...oggPackets(bytes)].map((packet) => ({
      serial: packet.serial,
      data: Buffer.from(packet.data).toString('latin1'),
      bos: packet.bos,
      eos: packet.eos,
      granule: packet.granule,
    }));
    expect(packets).toEqual([
      { serial: 1, data: 'head-a', bos: true, eos: false, granule: 0 },
      { serial: 2, data: 'head-b', bos: true, eos: false, granule: 0 },
      { serial: 2, data: 'b1', bos: false, eos: true, granule: 99 },
      { serial: 1, data: long.toString('latin1'), bos: false, eos: false, granule: -1 },
      { serial: 1, data: 'a2', bos: false, eos: true, granule: 960 },
    ]);
  });

  it('stops at a truncated page and refuses data without any page', () => {
    const whole = page({ serial: 1, flags: 0x02, segments: [Buffer.from('first')] });
    const cut = page({ serial: 1, segments: [Buffer.from('second packet')] }).subarray(0, 35);
    expect([...oggPackets(Buffer.concat([whole, cut]))]).toHaveLength(1);
    expect(() => [...oggPackets(Buffer.from('OggS but nothing else'))]).toThrow(AudioDecodeError);
  });

  it('reads the committed Ogg Opus file: headers, then 20 ms packets up to the final granule position', () => {
    const packets = [...oggPackets(readFileSync(join(__dirname, 'testdata', 'goforward.opus')))];
    expect(Buffer.from(packets[0].data.subarray(0, 8)).toString()).toBe('OpusHead');
    expect(packets[0].bos).toBe(true);
    expect(Buffer.from(packets[1].data.subarray(0, 8)).toString()).toBe('OpusTags');
    const audio = packets.slice(2);
    expect(audio.every((packet) => opusPacketSamples48k(packet.data) === 960)).toBe(true);
    expect(audio.at(-1)).toMatchObject({ eos: true, granule: 134_052 });
  });
});
