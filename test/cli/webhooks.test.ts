import { expect } from 'chai';
import { openDatabase } from '../../src/db/database.js';
import { emitConnectionEvent } from '../../src/domain/webhooks/events.js';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.js';
import { startGateway, type CliResult } from '../support/process.js';
import { gateway } from './cli.js';
import { eventually, startReceiver, type Receiver } from '../support/webhook-receiver.js';

function refusedWith(result: CliResult, pattern: RegExp, exitCode = 1): void {
  expect(result.code, result.stderr).to.equal(exitCode);
  expect(result.stdout).to.equal('');
  expect(result.stderr.trim().split('\n'), result.stderr).to.have.length(1);
  expect(result.stderr.trim()).to.match(pattern);
}

for (const dialect of dialects) {
  describe(`gateway webhooks commands [${dialect}]`, function () {
    this.timeout(300000);
    let database: TestDatabase;
    let receiver: Receiver;
    let env: NodeJS.ProcessEnv;
    const gw = (...args: string[]) => gateway(args, env);

    before(async () => {
      database = await createTestDatabase(dialect);
      receiver = await startReceiver();
      env = {
        GATEWAY_DATA_DIR: database.dataDir,
        GATEWAY_DATABASE_URL: database.url,
        GATEWAY_SECRET_KEY: 'cli-test-secret-key-of-at-least-32-characters',
        GATEWAY_WEBHOOKS__ALLOW_PRIVATE_TARGETS: 'true',
        GATEWAY_WEBHOOKS__POLL_INTERVAL_MS: '50',
      };
      expect((await gw('migrate')).code).to.equal(0);
      expect((await gw('orgs', 'create', 'acme')).code).to.equal(0);
    });
    after(async () => {
      await receiver.close();
      await database.drop();
    });

    it('registers, lists, shows deliveries of and deletes a webhook; a running server delivers a signed event', async () => {
      const registered = await gw('webhooks', 'register', receiver.url, '--json');
      expect(registered.code, registered.stderr).to.equal(0);
      const webhook = JSON.parse(registered.stdout);
      expect(Object.keys(webhook).sort()).to.deep.equal(['created_at', 'id', 'secret', 'url']);
      expect(webhook.url).to.equal(receiver.url);
      expect(webhook.secret).to.match(/^whsec_/);
      receiver.secret = webhook.secret;

      const listed = await gw('webhooks', 'list', '--json');
      expect(listed.stdout).to.not.include(webhook.secret);
      expect(JSON.parse(listed.stdout)).to.deep.equal({ webhooks: [{ id: webhook.id, url: webhook.url, created_at: webhook.created_at }] });
      expect((await gw('webhooks', 'list')).stdout).to.match(new RegExp(`${webhook.id}\\s+${receiver.url}`));
      expect(JSON.parse((await gw('webhooks', 'deliveries', webhook.id, '--json')).stdout)).to.deep.equal({ deliveries: [] });

      const db = await openDatabase(database.url);
      try {
        const [org] = await db.select<{ id: string }>("SELECT id FROM organizations WHERE name = 'acme'");
        const eventId = await emitConnectionEvent(db, org.id, 'connection.created', { id: 'conn_cli' });
        const server = await startGateway(env);
        try {
          await eventually('the signed delivery to be recorded', async () => {
            const [row] = await db.select<{ state: string }>('SELECT state FROM webhook_deliveries WHERE event_id = $1', [eventId]);
            return row.state === 'delivered';
          }, 60000);
        } finally {
          await server.stop();
        }
        expect(receiver.receipts).to.have.length(1);
        expect(receiver.receipts[0]).to.include({ verified: true, webhookId: eventId });
      } finally {
        await db.close();
      }
      const shown = JSON.parse((await gw('webhooks', 'deliveries', webhook.id, '--json')).stdout).deliveries;
      expect(shown).to.have.length(1);
      expect(shown[0]).to.include({ event_id: receiver.receipts[0].webhookId, event: 'connection.created', state: 'delivered', attempts: 1, last_status: 204, last_error: null });
      expect((await gw('webhooks', 'deliveries', webhook.id)).stdout).to.match(/connection\.created\s+delivered\s+1\s+204/);

      const deleted = await gw('webhooks', 'delete', webhook.id, '--json');
      expect(deleted.code, deleted.stderr).to.equal(0);
      expect(JSON.parse(deleted.stdout)).to.deep.equal({ id: webhook.id, url: webhook.url, created_at: webhook.created_at });
      expect(JSON.parse((await gw('webhooks', 'list', '--json')).stdout)).to.deep.equal({ webhooks: [] });
      refusedWith(await gw('webhooks', 'delete', webhook.id), /^gateway: no webhook wh_\S+ in this organization$/);
    });

    it('prints the secret once in the readable form too', async () => {
      const registered = await gw('webhooks', 'register', `${receiver.url}/readable`);
      expect(registered.code, registered.stderr).to.equal(0);
      expect(registered.stdout).to.match(/^registered webhook wh_\S+ for http:\/\/127\.0\.0\.1:\d+\/hook\/readable; its signing secret is not shown again:\nwhsec_\S+\n$/);
    });

    it('refuses targets the SSRF rules forbid with one line and exit 1', async () => {
      const strict = { ...env, GATEWAY_WEBHOOKS__ALLOW_PRIVATE_TARGETS: 'false' };
      const switchHint = ' \\(for local development, webhooks\\.allow_private_targets accepts plain http and private addresses\\)';
      refusedWith(await gateway(['webhooks', 'register', 'https://10.0.0.1/hook'], strict), new RegExp(`^gateway: webhook target refused: 10\\.0\\.0\\.1 is a private address${switchHint}$`));
      refusedWith(await gateway(['webhooks', 'register', receiver.url], strict), new RegExp(`^gateway: webhook target refused: the URL must use https${switchHint}$`));
      refusedWith(await gateway(['webhooks', 'register', 'http://127.0.0.1:3999/hooks'], strict), new RegExp(`^gateway: webhook target refused: the URL must use https${switchHint}$`));
      // The switch does not open metadata addresses, so it is not offered for them.
      refusedWith(await gateway(['webhooks', 'register', 'https://169.254.169.254/'], strict), /^gateway: webhook target refused: [^(]*metadata address[^(]*$/);
    });

    it('acts on the organization named by --org', async () => {
      expect((await gw('orgs', 'create', 'globex')).code).to.equal(0);
      // --org left out where it is needed is a missing argument: a usage error.
      refusedWith(await gw('webhooks', 'list'), /several organizations exist/, 2);
      const registered = JSON.parse((await gw('webhooks', 'register', `${receiver.url}/globex`, '--org', 'globex', '--json')).stdout);
      const globex = JSON.parse((await gw('webhooks', 'list', '--org', 'globex', '--json')).stdout);
      expect(globex.webhooks.map((w: { id: string }) => w.id)).to.deep.equal([registered.id]);
      refusedWith(await gw('webhooks', 'delete', registered.id, '--org', 'acme'), /no webhook/);
    });
  });
}
