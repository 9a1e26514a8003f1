import { AudioSink, deliverAudio } from './audio-delivery';
import type { CommittedGeneration } from './history.service';

type Event = string;

function chunks(...texts: string[]): Uint8Array[] {
  return texts.map((text) => Buffer.from(text));
}

async function* source(items: Uint8Array[], failAfter?: number): AsyncGenerator<Uint8Array> {
  for (const [index, item] of items.entries()) {
    await Promise.resolve(); // chunks arrive asynchronously, as from a worker
    if (failAfter !== undefined && index >= failAfter) {
      throw new Error('worker died');
    }
    yield item;
  }
}

function harness(options: { clientGoneAtEnd?: boolean; writeFailsAt?: number; commitFails?: boolean } = {}) {
  const events: Event[] = [];
  let writes = 0;
  const sink: AudioSink = {
    write: (chunk) => {
      writes++;
      if (options.writeFailsAt !== undefined && writes >= options.writeFailsAt) {
        events.push('write-failed');
        return Promise.reject(new Error('client gone'));
      }
      events.push(`write:${Buffer.from(chunk).toString()}`);
      return Promise.resolve();
    },
    end: () => {
      events.push('end');
      return Promise.resolve(!options.clientGoneAtEnd);
    },
    abort: () => events.push('abort'),
  };
  const recorded: string[][] = [];
  const recorder = {
    commit: (parts: readonly Uint8Array[]): Promise<CommittedGeneration | undefined> => {
      events.push('commit');
      if (options.commitFails) {
        return Promise.reject(new Error('disk full'));
      }
      recorded.push(parts.map((part) => Buffer.from(part).toString()));
      return Promise.resolve({
        entity: {} as CommittedGeneration['entity'],
        publish: () => {
          events.push('publish');
          return Promise.resolve();
        },
        discard: () => {
          events.push('discard');
          return Promise.resolve();
        },
      });
    },
  };
  const logger = { error: jest.fn() };
  return { events, sink, recorder, recorded, logger };
}

describe('deliverAudio', () => {
  it('streams every chunk at once, commits before ending, and publishes after a complete delivery', async () => {
    const h = harness();
    await deliverAudio(source(chunks('a', 'b', 'c')), h.sink, h.recorder, {
      holdLastChunk: false,
      logger: h.logger,
    });
    expect(h.events).toEqual(['write:a', 'write:b', 'write:c', 'commit', 'end', 'publish']);
    expect(h.recorded).toEqual([['a', 'b', 'c']]);
  });

  it('holds the last chunk of a sized response until the entry is committed', async () => {
    const h = harness();
    await deliverAudio(source(chunks('a', 'b', 'c')), h.sink, h.recorder, {
      holdLastChunk: true,
      logger: h.logger,
    });
    expect(h.events).toEqual(['write:a', 'write:b', 'commit', 'write:c', 'end', 'publish']);
  });

  it('records nothing when the worker fails mid-stream, and cuts the connection', async () => {
    const h = harness();
    await deliverAudio(source(chunks('a', 'b', 'c'), 2), h.sink, h.recorder, {
      holdLastChunk: false,
      logger: h.logger,
    });
    expect(h.events).toEqual(['write:a', 'write:b', 'abort']);
  });

  it('records nothing when the client leaves mid-stream', async () => {
    const h = harness({ writeFailsAt: 2 });
    await deliverAudio(source(chunks('a', 'b', 'c')), h.sink, h.recorder, {
      holdLastChunk: false,
      logger: h.logger,
    });
    expect(h.events).toEqual(['write:a', 'write-failed', 'abort']);
  });

  it('removes the entry again when the client is gone before the end', async () => {
    const h = harness({ clientGoneAtEnd: true });
    await deliverAudio(source(chunks('a', 'b')), h.sink, h.recorder, {
      holdLastChunk: true,
      logger: h.logger,
    });
    expect(h.events).toEqual(['write:a', 'commit', 'write:b', 'end', 'discard']);
  });

  it('removes the entry when the held last chunk cannot be written', async () => {
    const h = harness({ writeFailsAt: 2 });
    await deliverAudio(source(chunks('a', 'b')), h.sink, h.recorder, {
      holdLastChunk: true,
      logger: h.logger,
    });
    expect(h.events).toEqual(['write:a', 'commit', 'write-failed', 'abort', 'discard']);
  });

  it('still delivers the audio when recording fails', async () => {
    const h = harness({ commitFails: true });
    await deliverAudio(source(chunks('a', 'b')), h.sink, h.recorder, {
      holdLastChunk: true,
      logger: h.logger,
    });
    expect(h.events).toEqual(['write:a', 'commit', 'write:b', 'end']);
    expect(h.logger.error).toHaveBeenCalledWith(expect.stringContaining('disk full'));
  });
});
