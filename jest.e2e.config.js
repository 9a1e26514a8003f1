/** E2E tier: `test/e2e/*.e2e-spec.ts`; spawns the built services as real processes and talks HTTP. */
module.exports = {
  ...require('./jest.base.config'),
  displayName: 'e2e',
  roots: ['<rootDir>/test/e2e'],
  testRegex: '\\.e2e-spec\\.ts$',
  testTimeout: 180_000,
  maxWorkers: 1,
};
