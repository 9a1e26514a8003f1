import { FilterNode, Operand } from './ast';
import { FilterError } from './errors';
import { FILTER_LIMITS, parseFilter } from './parser';

/** A compact S-expression of the AST, so the table below stays readable. */
function show(node: FilterNode): string {
  if (node.type === 'comparison') {
    return `(${node.operator} ${operand(node.left)} ${operand(node.right)})`;
  }
  return `(${node.type} ${node.children.map(show).join(' ')})`;
}

function operand(op: Operand): string {
  switch (op.type) {
    case 'field':
      return op.path.join('.') + (op.modifier ? `:${op.modifier}` : '');
    case 'string':
      return JSON.stringify(op.value);
    case 'number':
      return String(op.value);
    case 'boolean':
      return String(op.value);
    case 'null':
      return 'null';
    case 'macro':
      return op.name;
  }
}

function parseError(expression: string): FilterError {
  try {
    parseFilter(expression);
  } catch (error) {
    if (error instanceof FilterError) {
      return error;
    }
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(expression)} to be rejected`);
}

describe('parseFilter', () => {
  it.each<[string, string]>([
    ['a = 1', '(= a 1)'],
    ['a=1', '(= a 1)'],
    ["name = 'x'", '(= name "x")'],
    ['name = "x"', '(= name "x")'],
    ["'x' = name", '(= "x" name)'],
    ['a = b', '(= a b)'],
    ['a != 1', '(!= a 1)'],
    ['a > 1', '(> a 1)'],
    ['a >= 1', '(>= a 1)'],
    ['a < 1', '(< a 1)'],
    ['a <= 1', '(<= a 1)'],
    ["a ~ 'x'", '(~ a "x")'],
    ["a !~ 'x'", '(!~ a "x")'],
    ['a ?= 1', '(?= a 1)'],
    ['a ?!= 1', '(?!= a 1)'],
    ['a ?> 1', '(?> a 1)'],
    ['a ?>= 1', '(?>= a 1)'],
    ['a ?< 1', '(?< a 1)'],
    ['a ?<= 1', '(?<= a 1)'],
    ["a ?~ 'x'", '(?~ a "x")'],
    ["a ?!~ 'x'", '(?!~ a "x")'],
    ['a>=-1', '(>= a -1)'],
    ['a = -14', '(= a -14)'],
    ['a = 10.50', '(= a 10.5)'],
    ['a = 0', '(= a 0)'],
    ['a = true && b = FALSE && c = Null', '(and (= a true) (= b false) (= c null))'],
    ['a = 1 && b = 2 && c = 3', '(and (= a 1) (= b 2) (= c 3))'],
    ['a = 1 || b = 2 || c = 3', '(or (= a 1) (= b 2) (= c 3))'],
    ['a = 1 || b = 2 && c = 3', '(or (= a 1) (and (= b 2) (= c 3)))'],
    ['a = 1 && b = 2 || c = 3', '(or (and (= a 1) (= b 2)) (= c 3))'],
    ['(a = 1 || b = 2) && c = 3', '(and (or (= a 1) (= b 2)) (= c 3))'],
    ['a = 1 && (b = 2 || c = 3) && d = 4', '(and (= a 1) (or (= b 2) (= c 3)) (= d 4))'],
    ['((((a = 1))))', '(= a 1)'],
    ['(a = 1)', '(= a 1)'],
    ["a = 'it\\'s'", `(= a "it's")`],
    ['a = "say \\"hi\\""', '(= a "say \\"hi\\"")'],
    [`a = 'mixed "quotes"'`, '(= a "mixed \\"quotes\\"")'],
    [`a = "it's"`, `(= a "it's")`],
    ["a = 'back\\slash'", '(= a "back\\\\slash")'],
    ["a = '50\\%'", '(= a "50\\\\%")'],
    ["a = ''", '(= a "")'],
    ["a = '&& || ( ) // not a comment'", '(= a "&& || ( ) // not a comment")'],
    ['a = 1 // trailing comment', '(= a 1)'],
    ['// leading comment\na = 1', '(= a 1)'],
    ['a = 1 // c1\n&& // c2\nb = 2', '(and (= a 1) (= b 2))'],
    ['\ta\r\n=\n1\t', '(= a 1)'],
    ['@request.auth.id != ""', '(!= @request.auth.id "")'],
    ['@request.body.tags:each ?= "x"', '(?= @request.body.tags:each "x")'],
    ['@request.body.role:isset = false', '(= @request.body.role:isset false)'],
    ['@collection.news:a.title = 1', '(= @collection.news:a.title 1)'],
    ['name:lower = "x"', '(= name:lower "x")'],
    ['tags:length > 1', '(> tags:length 1)'],
    ['user.team.name = 1', '(= user.team.name 1)'],
    ['data.items.0.name = 1', '(= data.items.0.name 1)'],
    ['created > @now && created < @todayEnd', '(and (> created @now) (< created @todayEnd))'],
    ['@yesterday < @tomorrow', '(< @yesterday @tomorrow)'],
    ['_private = 1', '(= _private 1)'],
    ['voices_via_user.name = 1', '(= voices_via_user.name 1)'],
  ])('%s', (expression, expected) => {
    expect(show(parseFilter(expression))).toBe(expected);
  });

  it('records positions of comparisons and operands', () => {
    const node = parseFilter("  name = 'x' && rating > 2");
    expect(node.type).toBe('and');
    if (node.type !== 'and') {
      return;
    }
    const [first, second] = node.children;
    expect(first.position).toBe(2);
    expect(second.position).toBe(16);
    if (second.type === 'comparison') {
      expect(second.right.position).toBe(25);
    }
  });

  it.each<[string, number, string]>([
    ['', 0, 'empty filter expression'],
    ['   // just a comment', 0, 'empty filter expression'],
    ['name', 4, 'expected an operator after "name", got the end of the expression'],
    ["name 'x'", 5, 'expected an operator after "name", got the text "x"'],
    ['name =', 6, 'after "=", got the end of the expression'],
    ['name = &&', 7, 'after "=", got "&&"'],
    ['= 1', 0, 'expected a field, text, number, true, false or null, got "="'],
    ['a = 1 &&', 8, 'got the end of the expression'],
    ['a = 1 && || b = 2', 9, 'got "||"'],
    ['a = 1 & b = 2', 6, 'invalid logical operator "&"'],
    ['a = 1 &&& b = 2', 6, 'invalid logical operator "&&&"'],
    ['a = 1 | b = 2', 6, 'invalid logical operator "|"'],
    ['a == 1', 2, 'invalid operator "=="'],
    ['a =! 1', 2, 'invalid operator "=!"'],
    ['a ! 1', 2, 'invalid operator "!"'],
    ["a = 'x", 4, 'unterminated string'],
    ["a = 'x\\'", 4, 'unterminated string'],
    ['(a = 1', 6, 'expected ")" to close the "(" at position 0'],
    ['((a = 1)', 8, 'expected ")" to close the "(" at position 0'],
    ['a = 1)', 5, 'unexpected ")" without a matching "("'],
    ['()', 0, 'empty parentheses'],
    ['a = 1 && ()', 9, 'empty parentheses'],
    ['a = 1 b = 2', 6, 'expected "&&", "||" or the end of the expression, got "b"'],
    ['a = 1 (b = 2)', 6, 'got "("'],
    ['a = -', 4, 'invalid number'],
    ['a = 1.', 4, 'invalid number "1."'],
    ['a = .5', 4, 'unexpected character "."'],
    ['a = $', 4, 'unexpected character "$"'],
    ['a = #x', 4, 'unexpected character "#"'],
    ['a / b', 2, 'unexpected character "/"'],
    ['geoDistance(1, 2, 3, 4) < 5', 0, 'functions are not supported'],
    ["a = strftime('%Y')", 4, 'functions are not supported'],
    ['a:foo = 1', 1, 'unknown modifier ":foo"'],
    ['a: = 1', 1, 'unknown modifier ":"'],
    ['a:lower.b = 1', 1, 'modifiers are only allowed at the end'],
    ['a..b = 1', 2, 'invalid field name "a..b"'],
    ['a. = 1', 2, 'invalid field name "a."'],
    ['a.@b = 1', 2, 'invalid field name'],
    ['@foo = 1', 0, 'unknown identifier "@foo"'],
    ['@ = 1', 0, 'unknown identifier "@"'],
    ['a = @nowish', 4, 'unknown identifier "@nowish"'],
    ['a = 1 && b = ü', 13, 'unexpected character "ü"'],
  ])('rejects %j at %i', (expression, position, message) => {
    const error = parseError(expression);
    expect(error.position).toBe(position);
    expect(error.reason).toContain(message);
    expect(error.message).toBe(`Invalid filter at position ${position}: ${error.reason}`);
  });

  it(`accepts ${FILTER_LIMITS.maxLength} characters and rejects one more`, () => {
    const base = "name = '";
    const fits = base + 'x'.repeat(FILTER_LIMITS.maxLength - base.length - 1) + "'";
    expect(fits).toHaveLength(FILTER_LIMITS.maxLength);
    expect(() => parseFilter(fits)).not.toThrow();
    const error = parseError(fits + ' ');
    expect(error.position).toBe(FILTER_LIMITS.maxLength);
    expect(error.reason).toContain('longer than 3500 characters');
  });

  it(`accepts ${FILTER_LIMITS.maxComparisons} comparisons and rejects one more`, () => {
    const clauses = Array.from({ length: FILTER_LIMITS.maxComparisons }, (_, i) => `a=${i}`);
    expect(() => parseFilter(clauses.join('||'))).not.toThrow();
    const tooMany = [...clauses, 'b=1'].join('||');
    const error = parseError(tooMany);
    expect(error.reason).toContain('too many comparisons (at most 200)');
    expect(error.position).toBe(tooMany.indexOf('b=1'));
  });

  it(`accepts ${FILTER_LIMITS.maxDepth} nested parentheses and rejects one more`, () => {
    const nest = (depth: number): string => '('.repeat(depth) + 'a = 1' + ')'.repeat(depth);
    expect(show(parseFilter(nest(FILTER_LIMITS.maxDepth)))).toBe('(= a 1)');
    const error = parseError(nest(FILTER_LIMITS.maxDepth + 1));
    expect(error.position).toBe(FILTER_LIMITS.maxDepth);
    expect(error.reason).toContain('nested more than 50 levels');
  });

  it('returns the same AST for a repeated expression (cached)', () => {
    expect(parseFilter('x = 1 && y = 2')).toBe(parseFilter('x = 1 && y = 2'));
  });
});
