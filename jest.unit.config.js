/** Unit tier: `*.spec.ts` beside the code; no network but loopback, no database file. */
module.exports = {
  ...require('./jest.base.config'),
  displayName: 'unit',
  roots: ['<rootDir>/src', '<rootDir>/worker', '<rootDir>/test/support'],
  testRegex: '\\.spec\\.ts$',
};
