import type { ResolvedCollection, ResolvedField } from './collections/collection.types';
import { dataFromEntity, decodeRow, encodeData, recordFiles } from './record-codec';

const fields: ResolvedField[] = [
  { name: 'id', type: 'text', column: 'id' },
  { name: 'enabled', type: 'bool', column: 'enabled' },
  { name: 'count', type: 'number', column: 'count' },
  { name: 'tags', type: 'select', multiple: true, values: ['a', 'b'], column: 'tags' },
  { name: 'meta', type: 'json', column: 'meta' },
  { name: 'doc', type: 'file', file: { maxSize: 10 }, column: 'doc' },
  { name: 'docs', type: 'file', multiple: true, file: { maxSize: 10 }, column: 'docs' },
  { name: 'lastCheck', type: 'text', column: 'last_check' },
];
const collection = {
  fields,
  fieldsByName: new Map(fields.map((f) => [f.name, f])),
} as unknown as ResolvedCollection;

describe('record codec', () => {
  it('round-trips values through SQLite columns', () => {
    const data = {
      id: 'x',
      enabled: true,
      count: 3,
      tags: ['a'],
      meta: { k: [1] },
      doc: 'a.png',
      docs: ['b.png'],
      lastCheck: 'now',
    };
    const row = encodeData(collection, data);
    expect(row).toEqual({
      id: 'x',
      enabled: 1,
      count: 3,
      tags: '["a"]',
      meta: '{"k":[1]}',
      doc: 'a.png',
      docs: '["b.png"]',
      last_check: 'now',
    });
    expect(decodeRow(collection, row)).toEqual(data);
  });

  it('reads sloppy stored values safely', () => {
    expect(
      decodeRow(collection, { id: null, enabled: 0, count: 'x', tags: 'not json', meta: '', docs: null }),
    ).toEqual({
      id: '',
      enabled: false,
      count: 0,
      tags: ['not json'],
      meta: null,
      doc: '',
      docs: [],
      lastCheck: '',
    });
  });

  it('takes entities published by other modules with multi-values stored or parsed', () => {
    expect(dataFromEntity(collection, { tags: '["a","b"]', meta: '{"x":1}', docs: null })).toMatchObject({
      tags: ['a', 'b'],
      meta: { x: 1 },
      docs: [],
    });
    expect(
      dataFromEntity(collection, { id: 'x', enabled: true, count: 1, tags: ['b'], lastCheck: 't' }),
    ).toMatchObject({
      enabled: true,
      tags: ['b'],
      lastCheck: 't',
    });
  });

  it('lists every file a record holds', () => {
    expect(recordFiles(collection, { doc: 'a.png', docs: ['b.png', 'c.png'] })).toEqual([
      'a.png',
      'b.png',
      'c.png',
    ]);
    expect(recordFiles(collection, { doc: '', docs: [] })).toEqual([]);
  });
});
