/** Content sniffing of uploads: the MIME type comes from the bytes, never from what the client claims. */

interface Signature {
  readonly mime: string;
  readonly extension: string;
  matches(bytes: Buffer): boolean;
}

function startsWith(bytes: Buffer, signature: readonly number[], offset = 0): boolean {
  return (
    bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte)
  );
}

function ascii(bytes: Buffer, text: string, offset = 0): boolean {
  return (
    bytes.length >= offset + text.length && bytes.toString('latin1', offset, offset + text.length) === text
  );
}

const SIGNATURES: readonly Signature[] = [
  {
    mime: 'image/png',
    extension: 'png',
    matches: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  { mime: 'image/jpeg', extension: 'jpg', matches: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  { mime: 'image/gif', extension: 'gif', matches: (b) => ascii(b, 'GIF87a') || ascii(b, 'GIF89a') },
  { mime: 'image/webp', extension: 'webp', matches: (b) => ascii(b, 'RIFF') && ascii(b, 'WEBP', 8) },
  { mime: 'audio/wav', extension: 'wav', matches: (b) => ascii(b, 'RIFF') && ascii(b, 'WAVE', 8) },
  { mime: 'audio/flac', extension: 'flac', matches: (b) => ascii(b, 'fLaC') },
  { mime: 'audio/ogg', extension: 'ogg', matches: (b) => ascii(b, 'OggS') },
  {
    mime: 'audio/mpeg',
    extension: 'mp3',
    matches: (b) => ascii(b, 'ID3') || (b.length > 1 && b[0] === 0xff && (b[1] & 0xe0) === 0xe0),
  },
  { mime: 'audio/mp4', extension: 'm4a', matches: (b) => ascii(b, 'ftypM4A', 4) },
  { mime: 'video/mp4', extension: 'mp4', matches: (b) => ascii(b, 'ftyp', 4) },
  { mime: 'video/webm', extension: 'webm', matches: (b) => startsWith(b, [0x1a, 0x45, 0xdf, 0xa3]) },
  { mime: 'application/pdf', extension: 'pdf', matches: (b) => ascii(b, '%PDF-') },
  { mime: 'application/zip', extension: 'zip', matches: (b) => startsWith(b, [0x50, 0x4b, 0x03, 0x04]) },
  { mime: 'application/gzip', extension: 'gz', matches: (b) => startsWith(b, [0x1f, 0x8b]) },
];

export interface DetectedType {
  readonly mime: string;
  /** Extension for the type, '' when unknown. */
  readonly extension: string;
}

/** The type of `bytes`: a known signature, else `text/plain` for valid UTF-8 without NULs, else octet-stream. */
export function detectMime(bytes: Buffer): DetectedType {
  for (const signature of SIGNATURES) {
    if (signature.matches(bytes)) {
      return { mime: signature.mime, extension: signature.extension };
    }
  }
  const head = bytes.subarray(0, 8192);
  if (!head.includes(0) && isUtf8(head)) {
    return { mime: 'text/plain', extension: 'txt' };
  }
  return { mime: 'application/octet-stream', extension: '' };
}

function isUtf8(bytes: Buffer): boolean {
  try {
    // `stream` keeps a multi-byte character cut at the end of the sniffed window from counting as an error.
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** Image types thumbs are made for. */
export const THUMB_IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** Whether `mime` is accepted by a list such as `['image/*', 'audio/wav']` (empty list = anything). */
export function mimeAllowed(mime: string, allowed: readonly string[] | undefined): boolean {
  if (!allowed?.length) {
    return true;
  }
  return allowed.some((entry) =>
    entry.endsWith('/*') ? mime.startsWith(entry.slice(0, -1)) : entry.toLowerCase() === mime,
  );
}
