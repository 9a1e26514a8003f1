import { AudioDecodeError } from './decode-errors';

/** One packet of a logical Ogg stream. */
export interface OggPacket {
  /** Serial number of the logical stream. */
  serial: number;
  data: Uint8Array;
  /** First packet of its logical stream (the page had the BOS flag). */
  bos: boolean;
  /** Granule position of the page the packet ends on, when it is the last packet ending there; else -1. */
  granule: number;
  /** Last packet of its logical stream. */
  eos: boolean;
}

const FLAG_CONTINUED = 0x01;
const FLAG_BOS = 0x02;
const FLAG_EOS = 0x04;

/**
 * The packets of an Ogg file in file order (RFC 3533): pages are walked, their lacing values joined into
 * packets, packets spanning pages reassembled per logical stream. Lenient like players are: checksums are not
 * verified, a truncated last page ends the stream, bytes between pages are skipped to the next capture pattern.
 *
 * @throws AudioDecodeError `invalid_audio` when no page at all is found.
 */
export function* oggPackets(bytes: Uint8Array): Generator<OggPacket> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const pending = new Map<number, Uint8Array[]>();
  let offset = 0;
  let pages = 0;
  while (offset + 27 <= bytes.byteLength) {
    if (!isCapture(bytes, offset)) {
      const next = findCapture(bytes, offset + 1);
      if (next < 0) {
        break;
      }
      offset = next;
      continue;
    }
    const flags = bytes[offset + 5];
    const granuleLow = view.getUint32(offset + 6, true);
    const granuleHigh = view.getInt32(offset + 10, true);
    const granule = granuleHigh === -1 && granuleLow === 0xffffffff ? -1 : granuleHigh * 2 ** 32 + granuleLow;
    const serial = view.getUint32(offset + 14, true);
    const segmentCount = bytes[offset + 26];
    const tableEnd = offset + 27 + segmentCount;
    if (tableEnd > bytes.byteLength) {
      break;
    }
    const lacing = bytes.subarray(offset + 27, tableEnd);
    const bodyLength = lacing.reduce((sum, value) => sum + value, 0);
    if (tableEnd + bodyLength > bytes.byteLength) {
      break; // truncated page: what came before is all there is
    }
    pages++;
    let parts = pending.get(serial) ?? [];
    if (!(flags & FLAG_CONTINUED) && parts.length > 0) {
      parts = []; // a continuation was lost: drop the partial packet
    }
    // Index of the last segment that ends a packet on this page (granule belongs to that packet).
    let lastComplete = -1;
    for (let i = 0; i < lacing.length; i++) {
      if (lacing[i] < 255) {
        lastComplete = i;
      }
    }
    let position = tableEnd;
    let packetStart = position;
    let first = true;
    for (let i = 0; i < lacing.length; i++) {
      position += lacing[i];
      if (lacing[i] === 255) {
        continue;
      }
      parts.push(bytes.subarray(packetStart, position));
      const data = parts.length === 1 ? parts[0] : concat(parts);
      parts = [];
      yield {
        serial,
        data,
        bos: (flags & FLAG_BOS) !== 0 && first,
        granule: i === lastComplete ? granule : -1,
        eos: (flags & FLAG_EOS) !== 0 && i === lastComplete,
      };
      first = false;
      packetStart = position;
    }
    if (packetStart < position) {
      parts.push(bytes.subarray(packetStart, position));
    }
    pending.set(serial, parts);
    offset = position;
  }
  if (pages === 0) {
    throw AudioDecodeError.invalid('The OGG file has no complete page.');
  }
}

function isCapture(bytes: Uint8Array, offset: number): boolean {
  return (
    bytes[offset] === 0x4f &&
    bytes[offset + 1] === 0x67 &&
    bytes[offset + 2] === 0x67 &&
    bytes[offset + 3] === 0x53 &&
    bytes[offset + 4] === 0
  );
}

function findCapture(bytes: Uint8Array, from: number): number {
  for (let offset = from; offset + 27 <= bytes.byteLength; offset++) {
    if (isCapture(bytes, offset)) {
      return offset;
    }
  }
  return -1;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}
