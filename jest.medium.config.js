/** Medium tier: `*.medium-spec.ts`; real SQLite files in temp folders, real filesystem, in-process Nest apps. */
module.exports = {
  ...require('./jest.base.config'),
  displayName: 'medium',
  roots: ['<rootDir>/src', '<rootDir>/worker'],
  testRegex: '\\.medium-spec\\.ts$',
  testTimeout: 60_000,
};
