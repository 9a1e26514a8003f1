import { readSseJson } from './sse';

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) {
        controller.enqueue(encoder.encode(chunk));
      }
      controller.close();
    },
  });
}

async function collect<T>(body: ReadableStream<Uint8Array>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of readSseJson<T>(body)) {
    out.push(item);
  }
  return out;
}

describe('readSseJson', () => {
  it('parses events split across chunks, skipping comments and other fields', async () => {
    const events = await collect<{ n: number }>(
      streamOf([
        ': hello\n\nevent: x\nda',
        'ta: {"n":1}\n',
        '\nid: 7\ndata: {"n":2}\r\n\r\n',
        'data: {"n":3}',
      ]),
    );
    expect(events).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it('joins multi-line data', async () => {
    expect(await collect(streamOf(['data: {"a":\ndata: 1}\n\n']))).toEqual([{ a: 1 }]);
  });
});
