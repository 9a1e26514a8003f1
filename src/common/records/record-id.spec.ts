import { isRecordId, newRecordId, recordDate } from './record-id';

describe('record ids and dates', () => {
  it('generates distinct 15-character lower-case alphanumeric ids', () => {
    const ids = new Set(Array.from({ length: 2000 }, () => newRecordId()));
    expect(ids.size).toBe(2000);
    for (const id of ids) {
      expect(isRecordId(id)).toBe(true);
    }
  });

  it('rejects malformed ids', () => {
    expect(isRecordId('ABCDEFGHIJKLMNO')).toBe(false);
    expect(isRecordId('abc')).toBe(false);
    expect(isRecordId('abcdefghijklmno1')).toBe(false);
  });

  it('formats dates like PocketBase', () => {
    expect(recordDate(new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 6)))).toBe('2024-01-02 03:04:05.006Z');
  });
});
