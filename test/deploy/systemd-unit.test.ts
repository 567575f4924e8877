import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { projectRoot } from '../support/process.js';

const unitFile = path.join(projectRoot, 'deploy', 'task-gateway.service');
const unit = readFileSync(unitFile, 'utf8');
const analyzerPresent = !spawnSync('systemd-analyze', ['--version']).error;

describe('deploy/task-gateway.service', function () {
  this.timeout(60000);

  const verify = 'systemd-analyze verify accepts it without a warning';
  if (analyzerPresent) {
    it(verify, () => {
      // The unit names Debian's node; where node lives elsewhere, the copy verified names this one.
      const dir = mkdtempSync(path.join(tmpdir(), 'gw-unit-'));
      const copy = path.join(dir, 'task-gateway.service');
      writeFileSync(copy, existsSync('/usr/bin/node') ? unit : unit.replaceAll('/usr/bin/node', process.execPath));
      try {
        const result = spawnSync('systemd-analyze', ['verify', copy], { encoding: 'utf8' });
        expect(result.status, result.stderr).to.equal(0);
        expect(`${result.stdout}${result.stderr}`.trim()).to.equal('');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  } else {
    it.skip(`${verify} (skipped: systemd-analyze is not installed on this machine)`);
  }

  it('runs as a dedicated user with a private data directory, migrates before serving, and restarts on failure', () => {
    const directive = (name: string) => unit.split('\n').filter((line) => line.startsWith(`${name}=`)).map((line) => line.slice(name.length + 1));
    expect(directive('User')).to.deep.equal(['task-gateway']);
    expect(directive('StateDirectory')).to.deep.equal(['task-gateway']);
    expect(directive('StateDirectoryMode')).to.deep.equal(['0700']);
    expect(directive('ExecStartPre')[0]).to.match(/bin\/gateway migrate$/);
    expect(directive('ExecStart')[0]).to.match(/bin\/gateway serve --no-migrate$/);
    expect(directive('KillSignal')).to.deep.equal(['SIGTERM']);
    expect(directive('Restart')).to.deep.equal(['on-failure']);
  });

  it('has glibc give large freed buffers back to the system (a fixed mmap threshold)', () => {
    const environment = unit.split('\n').filter((line) => line.startsWith('Environment=')).map((line) => line.slice('Environment='.length));
    expect(environment).to.include('MALLOC_MMAP_THRESHOLD_=131072');
  });

  it('is shown as it is in docs/operations.md', () => {
    expect(readFileSync(path.join(projectRoot, 'docs', 'operations.md'), 'utf8')).to.contain(unit);
  });
});
