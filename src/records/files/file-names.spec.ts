import { isStoredFileName, snakecase, storedFileName } from './file-names';

describe('stored file names', () => {
  it('snake-cases like PocketBase', () => {
    expect(snakecase('My Photo')).toBe('my_photo');
    expect(snakecase('myTestDB')).toBe('my_test_db');
    expect(snakecase('  hello--world__x ')).toBe('hello_world_x');
  });

  it.each([
    ['My Photo.PNG', /^my_photo_[a-z0-9]{10}\.png$/],
    ['report.final.pdf', /^report_final_[a-z0-9]{10}\.pdf$/],
    ['../../etc/passwd', /^passwd_[a-z0-9]{10}$/],
    ['..\\..\\windows\\evil.exe', /^evil_[a-z0-9]{10}\.exe$/],
    ['.htaccess', /^htaccess_[a-z0-9]{10}$/],
    ['a.b', /^a[a-z0-9]{10}_[a-z0-9]{10}\.b$/],
    ['ünïcödé 名前.JPG', /^n_c_d_[a-z0-9]{10}\.jpg$/],
    ['x'.repeat(400) + '.txt', /^x{100}_[a-z0-9]{10}\.txt$/],
    ['strange.p<n>g', /^strange_[a-z0-9]{10}\.png$/],
  ])('%j → %s', (original, pattern) => {
    const name = storedFileName(original);
    expect(name).toMatch(pattern);
    expect(isStoredFileName(name)).toBe(true);
  });

  it('falls back to the detected extension and keeps names unique', () => {
    expect(storedFileName('noext', 'wav')).toMatch(/^noext_[a-z0-9]{10}\.wav$/);
    const names = new Set(Array.from({ length: 200 }, () => storedFileName('same.png')));
    expect(names.size).toBe(200);
  });

  it('recognises only names it could have made', () => {
    for (const bad of ['', '../x.png', 'a/b.png', 'A.png', 'x.png/', '.hidden', 'a..png', 'a.png\u0000']) {
      expect(isStoredFileName(bad)).toBe(false);
    }
  });
});
