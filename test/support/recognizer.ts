import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Lower-case words of a text, without punctuation. */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9' ]+/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

/** Share of the reference's distinct words that the hypothesis contains (0..1). */
export function wordOverlap(reference: string, hypothesis: string): number {
  const wanted = new Set(words(reference));
  const heard = new Set(words(hypothesis));
  let hits = 0;
  for (const word of wanted) {
    if (heard.has(word)) {
      hits++;
    }
  }
  return wanted.size === 0 ? 0 : hits / wanted.size;
}

/**
 * Independent check of generated speech, outside Chorus: resample with sox and recognise with the system's
 * PocketSphinx (Debian packages sox, pocketsphinx, pocketsphinx-en-us).
 */
export async function recogniseWithPocketSphinx(wav: Buffer): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'chorus-asr-'));
  try {
    const input = join(dir, 'in.wav');
    const resampled = join(dir, 'in16k.wav');
    writeFileSync(input, wav);
    await run('sox', [input, '-r', '16000', '-c', '1', '-b', '16', resampled]);
    const output = await run('pocketsphinx_continuous', ['-infile', resampled, '-logfn', '/dev/null']);
    return output.trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { timeout: 120_000, maxBuffer: 10 << 20 },
      (error: Error | null, stdout: string) => {
        if (error) {
          reject(new Error(`${command} failed: ${error.message}`));
        } else {
          resolve(stdout);
        }
      },
    );
  });
}
