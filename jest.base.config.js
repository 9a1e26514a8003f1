/** Shared Jest settings: ts-jest transpiles only (types are checked once by `tsc --noEmit` in the lint step). */
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json', diagnostics: false }],
  },
  modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/client/'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/client/'],
};
