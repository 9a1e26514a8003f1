import { join } from 'node:path';

import { lastErrorLine, npmCommand } from './npm-installer';

describe('npmCommand', () => {
  it('runs the npm CLI next to Node when there is one', () => {
    const command = npmCommand();
    if (command.prefixArgs.length > 0) {
      expect(command.command).toBe(process.execPath);
      expect(command.prefixArgs[0]).toMatch(/npm-cli\.js$/);
    } else {
      expect(command.command).toBe('npm');
    }
  });

  it('falls back to npm on the PATH', () => {
    expect(npmCommand(join('/nowhere', 'bin', 'node'))).toEqual({ command: 'npm', prefixArgs: [] });
  });
});

describe('lastErrorLine', () => {
  it('picks the error code and first message of npm', () => {
    const stderr = [
      'npm warn Unknown user config "nodedir".',
      'npm error code E404',
      'npm error 404 Not Found - GET https://registry.npmjs.org/nope - Not found',
      'npm error 404',
      'npm error A complete log of this run can be found in: /root/.npm/_logs/x.log',
    ].join('\n');
    expect(lastErrorLine(stderr)).toBe(
      'E404: 404 Not Found - GET https://registry.npmjs.org/nope - Not found',
    );
  });

  it('skips the key/value lines', () => {
    const stderr = [
      'npm error code ENOENT',
      'npm error syscall open',
      'npm error path /tmp/nope.tgz',
      'npm error errno -2',
      "npm error enoent ENOENT: no such file or directory, open '/tmp/nope.tgz'",
    ].join('\n');
    expect(lastErrorLine(stderr)).toBe(
      "ENOENT: enoent ENOENT: no such file or directory, open '/tmp/nope.tgz'",
    );
  });

  it('falls back to the last line', () => {
    expect(lastErrorLine('something\nwent wrong\n')).toBe('went wrong');
    expect(lastErrorLine('')).toBe('no output');
  });
});
