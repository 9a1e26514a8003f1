import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeWav } from '../../worker/audio/wav';
import { TestAccount, call } from './accounts';
import { REPO_ROOT, tempDir } from './processes';

/** A 1×1 PNG (avatar uploads). */
export const PNG_1X1 = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

/** Catalog id of the test-only cloning model added by {@link writeTestCatalog}. */
export const TEST_CLONE_MODEL = 'test-clone';
/** Its reference limit, in seconds. */
export const TEST_CLONE_MAX_REFERENCE = 6;

/**
 * The real catalog plus one test-only cloning entry served by the embedded eSpeak engine (which ignores
 * reference audio): voices on it take samples and generate end to end, with no model to download.
 * Returns the file's path, for CATALOG_FILE.
 */
export function writeTestCatalog(): string {
  const catalog = JSON.parse(readFileSync(join(REPO_ROOT, 'catalog.json'), 'utf8')) as Record<
    string,
    unknown
  >[];
  catalog.push({
    id: TEST_CLONE_MODEL,
    name: 'Test cloning model',
    description: 'Test-only cloning entry spoken by the embedded eSpeak engine.',
    backend: 'espeak',
    backendDisplayName: 'eSpeak NG (embedded)',
    backendDescription: 'Test entry.',
    variant: 'test-clone',
    repo: null,
    files: [],
    size: 0,
    types: ['cloning'],
    maxReferenceDuration: TEST_CLONE_MAX_REFERENCE,
    license: 'GPL-3.0-or-later',
    hardware: 'cpu',
    languages: ['en', 'fr'],
    embedded: true,
  });
  const file = join(tempDir('catalog'), 'catalog.json');
  writeFileSync(file, JSON.stringify(catalog));
  return file;
}

/** A WAV of a 440 Hz tone. */
export function toneWav(seconds: number, sampleRate = 22_050, channels = 1): Buffer {
  const frames = Math.round(seconds * sampleRate);
  const samples = new Int16Array(frames * channels);
  for (let i = 0; i < samples.length; i++) {
    samples[i] = Math.round(Math.sin((2 * Math.PI * 440 * Math.floor(i / channels)) / sampleRate) * 6000);
  }
  return encodeWav(samples, sampleRate, channels);
}

/** A parsed JSON response body: tests read fields freely and let assertions do the checking. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JsonBody = any;

/** A WAV of `bytes` bytes of silence (cheap to make, for size limits). */
export function silentWav(bytes: number, sampleRate = 44_100): Buffer {
  return encodeWav(new Int16Array(Math.floor(bytes / 2)), sampleRate);
}

export interface FilePart {
  field: string;
  bytes: Buffer;
  name: string;
  type?: string;
}

/** Sends a multipart form; returns status and parsed JSON (or text). */
export async function sendForm(
  apiUrl: string,
  method: string,
  path: string,
  account: TestAccount | null,
  fields: Record<string, string | string[]>,
  files: FilePart[] = [],
): Promise<{ status: number; body: JsonBody }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      form.append(name, item);
    }
  }
  for (const part of files) {
    form.append(
      part.field,
      new Blob([new Uint8Array(part.bytes)], { type: part.type ?? 'application/octet-stream' }),
      part.name,
    );
  }
  const response = await fetch(`${apiUrl}${path}`, {
    method,
    headers: account ? { authorization: account.authorization } : {},
    body: form,
  });
  const text = await response.text();
  let body: JsonBody = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  return { status: response.status, body };
}

/** A JSON request (or none) as `account`; the body comes back parsed. */
export async function api(
  apiUrl: string,
  method: string,
  path: string,
  account: TestAccount | null,
  body?: unknown,
): Promise<{ status: number; body: JsonBody; headers: Headers }> {
  const response: { status: number; body: JsonBody; headers: Headers } = await call(apiUrl, method, path, {
    account,
    body,
  });
  return response;
}
