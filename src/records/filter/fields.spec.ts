import { FilterError } from './errors';
import { excerpt, parseFields, pickFields } from './fields';

function fieldsError(input: string): FilterError {
  try {
    parseFields(input);
  } catch (error) {
    if (error instanceof FilterError) {
      return error;
    }
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(input)} to be rejected`);
}

const record = {
  id: 'v1',
  name: 'Calm Narrator',
  description: '<p>A <b>calm</b> voice,</p><p>made   for long <i>narration</i>.</p>',
  rating: 4.5,
  expand: {
    user: { id: 'u1', name: 'Alice', email: 'alice@example.com' },
    editors: [
      { id: 'u2', name: 'Bob', bio: 'Long biography text' },
      { id: 'u3', name: 'Carol', bio: 'Short' },
    ],
  },
};

describe('parseFields', () => {
  it.each<[string, unknown]>([
    ['', { entries: [] }],
    ['id', { entries: [{ path: ['id'] }] }],
    [' id , name ', { entries: [{ path: ['id'] }, { path: ['name'] }] }],
    ['*,expand.user.name', { entries: [{ path: ['*'] }, { path: ['expand', 'user', 'name'] }] }],
    ['expand.*', { entries: [{ path: ['expand', '*'] }] }],
    [
      'description:excerpt(200,true)',
      { entries: [{ path: ['description'], excerpt: { maxLength: 200, ellipsis: true } }] },
    ],
    ['*:excerpt(10)', { entries: [{ path: ['*'], excerpt: { maxLength: 10, ellipsis: false } }] }],
    [
      'id,bio:excerpt( 5 , f ),name',
      {
        entries: [
          { path: ['id'] },
          { path: ['bio'], excerpt: { maxLength: 5, ellipsis: false } },
          { path: ['name'] },
        ],
      },
    ],
    ['id,,name,', { entries: [{ path: ['id'] }, { path: ['name'] }] }],
  ])('%j', (input, expected) => {
    expect(parseFields(input)).toEqual(expected);
  });

  it.each<[string, number, string]>([
    ['id,a-b', 3, 'invalid field "a-b"'],
    ['a..b', 2, 'invalid field "a..b"'],
    ['name:lower', 5, 'unknown modifier ":lower"'],
    ['name:excerpt()', 5, 'excerpt expects (maxLength) or (maxLength, withEllipsis)'],
    ['name:excerpt(0)', 5, 'the excerpt length must be a positive integer'],
    ['name:excerpt(-1)', 5, 'the excerpt length must be a positive integer'],
    ['name:excerpt(1.5)', 5, 'the excerpt length must be a positive integer'],
    ['name:excerpt(5,maybe)', 5, 'the excerpt ellipsis flag must be true or false, not "maybe"'],
    ['name:excerpt(1,2,3)', 5, 'excerpt expects'],
    ['name:excerpt(5', 14, 'missing ")"'],
    ['name)', 4, 'unexpected ")"'],
  ])('rejects %j at %i', (input, position, message) => {
    const error = fieldsError(input);
    expect(error.position).toBe(position);
    expect(error.reason).toContain(message);
    expect(error.message).toBe(`Invalid fields at position ${position}: ${error.reason}`);
  });
});

describe('pickFields', () => {
  const pick = (fields: string, data: unknown = record): unknown => pickFields(data, parseFields(fields));

  it('returns the data untouched when no fields are given', () => {
    expect(pick('')).toBe(record);
  });

  it('keeps only the listed top-level keys', () => {
    expect(pick('id,name,missing')).toEqual({ id: 'v1', name: 'Calm Narrator' });
  });

  it('picks nested paths, including through arrays of objects', () => {
    expect(pick('id,expand.user.name,expand.editors.id')).toEqual({
      id: 'v1',
      expand: { user: { name: 'Alice' }, editors: [{ id: 'u2' }, { id: 'u3' }] },
    });
  });

  it('keeps a whole object when the path ends at it', () => {
    expect(pick('expand.user')).toEqual({ expand: { user: record.expand.user } });
  });

  it('expands * to every key not listed more specifically', () => {
    expect(pick('*,expand.user.id')).toEqual({
      id: 'v1',
      name: 'Calm Narrator',
      description: record.description,
      rating: 4.5,
      expand: { user: { id: 'u1' } },
    });
    expect(pick('id,expand.*')).toEqual({ id: 'v1', expand: record.expand });
  });

  it('applies excerpts to strings only', () => {
    expect(pick('description:excerpt(20,true),rating:excerpt(1)')).toEqual({
      description: 'A calm voice, made f...',
      rating: 4.5,
    });
    expect(pick('expand.editors.bio:excerpt(4)')).toEqual({
      expand: { editors: [{ bio: 'Long' }, { bio: 'Shor' }] },
    });
  });

  it('picks each record of a list', () => {
    expect(pick('id', [record, { id: 'v2', name: 'x' }, 'not an object'])).toEqual([
      { id: 'v1' },
      { id: 'v2' },
      'not an object',
    ]);
  });

  it('does not modify its input', () => {
    const copy = JSON.parse(JSON.stringify(record)) as unknown;
    pick('id,expand.user.name,description:excerpt(3)');
    expect(record).toEqual(copy);
  });
});

describe('excerpt', () => {
  it.each<[string, number, boolean, string]>([
    ['plain text', 100, false, 'plain text'],
    ['plain text', 5, true, 'plain...'],
    ['<p>One</p><p>Two</p>', 100, false, 'One Two'],
    ['<b>bold</b>face', 100, false, 'boldface'],
    ['a<script>alert(1)</script>b<style>p{}</style>c', 100, false, 'a b c'],
    ['x &amp; y &lt;z&gt; &#39;q&#39; &#x263A; &bogus;', 100, false, "x & y <z> 'q' ☺ &bogus;"],
    ['  lots   of\n\nspace  ', 100, false, 'lots of space'],
    ['日本語のテキスト', 3, true, '日本語...'],
    ['word <!-- hidden --> end', 100, false, 'word end'],
    ['cut at space here', 7, true, 'cut at...'],
  ])('%j (%i, %s)', (html, max, ellipsis, expected) => {
    expect(excerpt(html, max, ellipsis)).toBe(expected);
  });
});
