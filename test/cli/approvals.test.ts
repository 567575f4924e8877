import { expect } from 'chai';
import { dialects } from '../support/databases.js';
import { useCliDatabase } from './cli.js';

/** `gateway approvals` and the organization's display name from the command line, against the configured database. */
for (const dialect of dialects) {
  describe(`gateway approvals and orgs display names [${dialect}]`, function () {
    this.timeout(120000);
    const { gw } = useCliDatabase(dialect);

    it('creates an organization with a display name and renames it, keeping orgs create --json {id, name}', async () => {
      const created = await gw('orgs', 'create', 'acme', '--display-name', 'Acme Corp', '--json');
      expect(created.code, created.stderr).to.equal(0);
      expect(JSON.parse(created.stdout)).to.have.all.keys('id', 'name');
      const renamed = await gw('orgs', 'rename', 'acme', '--display-name', 'Acme & Co', '--json');
      expect(renamed.code, renamed.stderr).to.equal(0);
      expect(JSON.parse(renamed.stdout)).to.include({ name: 'acme', display_name: 'Acme & Co' });
      const listed = JSON.parse((await gw('orgs', 'list', '--json')).stdout);
      expect(listed.organizations[0]).to.include({ name: 'acme', display_name: 'Acme & Co' });
      const empty = await gw('orgs', 'rename', 'acme', '--display-name', 'two\nlines');
      expect(empty.code).to.equal(2);
      expect(empty.stderr.trim().split('\n')).to.have.length(1);
      expect((await gw('orgs', 'rename', 'acme')).code, '--display-name is required').to.equal(2);
    });

    it('shows, replaces and clears the approval policy, and refuses bad flags with exit 2', async () => {
      const shown = await gw('approvals', 'policy', '--json');
      expect(shown.code, shown.stderr).to.equal(0);
      expect(JSON.parse(shown.stdout)).to.deep.equal({ kinds: [], tasks: [], over_usd: null });
      expect((await gw('approvals', 'policy')).stdout.trim()).to.equal('no run needs approval');

      const set = await gw('approvals', 'policy', '--kind', 'action', '--task', 'stripe.refunds.*', '--task', '*.send', '--over', '0.5', '--json');
      expect(set.code, set.stderr).to.equal(0);
      expect(JSON.parse(set.stdout)).to.deep.equal({ kinds: ['action'], tasks: ['stripe.refunds.*', '*.send'], over_usd: 0.5 });
      expect((await gw('approvals', 'policy')).stdout.trim()).to.equal("runs of action tasks, stripe.refunds.*, *.send quoted above $0.5 need the end user's approval");

      for (const bad of [['--kind', 'write'], ['--task', 'a b'], ['--over', 'lots'], ['--over', '-1'], ['--clear', '--kind', 'action']]) {
        const refused = await gw('approvals', 'policy', ...bad);
        expect(refused.code, `${bad.join(' ')}: ${refused.stderr}`).to.equal(2);
        expect(refused.stderr.trim().split('\n')).to.have.length(1);
      }
      expect(JSON.parse((await gw('approvals', 'policy', '--json')).stdout).kinds, 'a refused change changes nothing').to.deep.equal(['action']);

      const cleared = await gw('approvals', 'policy', '--clear', '--json');
      expect(JSON.parse(cleared.stdout)).to.deep.equal({ kinds: [], tasks: [], over_usd: null });
      const listed = await gw('approvals', 'list', '--json');
      expect(listed.code, listed.stderr).to.equal(0);
      expect(JSON.parse(listed.stdout)).to.deep.equal({ approvals: [], next_cursor: null });
    });
  });
}
