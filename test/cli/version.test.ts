import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { projectRoot, runGateway } from '../support/process.js';

const packageJson = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string };

describe('gateway --version', function () {
  this.timeout(180000);

  it('prints the package version, and {"version"} with --json', async () => {
    const text = await runGateway(['--version'], {});
    expect(text.code, text.stderr).to.equal(0);
    expect(text.stdout).to.equal(`${packageJson.version}\n`);

    const json = await runGateway(['--version', '--json'], {});
    expect(json.code, json.stderr).to.equal(0);
    expect(JSON.parse(json.stdout)).to.deep.equal({ version: packageJson.version });
  });

  it('reads package.json beside the compiled CLI when it runs from dist/, at run time', () => {
    // A package of its own, built as npm ci builds it, whose package.json says another version: the project's
    // dist/ copied (npm test builds it first), or compiled here when there is none.
    const dir = mkdtempSync(path.join(tmpdir(), 'gw-version-'));
    try {
      if (existsSync(path.join(projectRoot, 'dist', 'cli', 'main.js'))) {
        cpSync(path.join(projectRoot, 'dist'), path.join(dir, 'dist'), { recursive: true });
      } else {
        const tsc = path.join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc');
        spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', path.join(dir, 'dist')], { cwd: projectRoot });
      }
      const entry = path.join(dir, 'dist', 'cli', 'main.js');
      expect(existsSync(entry), 'the CLI compiled').to.equal(true);
      writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ ...packageJson, version: '9.8.7-built' }));
      for (const link of ['config', 'node_modules']) symlinkSync(path.join(projectRoot, link), path.join(dir, link));

      const text = spawnSync(process.execPath, [entry, '--version'], { cwd: tmpdir(), encoding: 'utf8' });
      expect(text.status, text.stderr).to.equal(0);
      expect(text.stdout).to.equal('9.8.7-built\n');
      const json = spawnSync(process.execPath, [entry, '--version', '--json'], { cwd: tmpdir(), encoding: 'utf8' });
      expect(JSON.parse(json.stdout)).to.deep.equal({ version: '9.8.7-built' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
