import { expect } from 'chai';
import { runCommand } from '../support/process.js';

/** The README's `npx gateway ...`: npm adds nothing of its own (its config warnings) to what the gateway prints. */
describe('npx gateway from the project root', function () {
  this.timeout(60000);

  it('prints the help and no npm line', async () => {
    const result = await runCommand('npx', ['gateway', '--help'], {});
    expect(result.code).to.equal(0);
    expect(result.stdout).to.match(/^Usage: gateway/);
    expect(result.stderr).to.not.match(/^npm /m);
  });

  it("prints only the gateway's one line for an unknown command", async () => {
    const result = await runCommand('npx', ['gateway', 'no-such-command'], {});
    expect(result.code).to.equal(2);
    expect(result.stderr.trim().split('\n')).to.have.length(1);
    expect(result.stderr).to.match(/^error: unknown command 'no-such-command'/);
  });
});
