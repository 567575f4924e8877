import { expect } from 'chai';
import { revokeConnection, saveConsentedConnection } from '../../src/domain/connections/connections.js';
import type { StoredCredential } from '../../src/domain/connections/credentials.js';
import { expiringScanTask, scanExpiringCredentials } from '../../src/domain/webhooks/expiring.js';
import { eachDialect } from '../support/harness.js';
import { eventually } from '../support/webhook-receiver.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

eachDialect('connection.expiring scan', (h) => {
  let account = 0;

  /** A connection attached as a consent would attach it, for a fresh account of user:ada. */
  function attach(credential: StoredCredential, accountId = `acct-${++account}`) {
    return saveConsentedConnection(h().gateway, {
      organizationId: h().organizationId,
      principal: 'user:ada',
      provider: 'github',
      accountId,
      label: accountId,
      credential,
      scopes: [],
    });
  }

  async function expiringEvents(): Promise<Array<{ id: string; payload: string }>> {
    return h().gateway.db.select('SELECT id, payload FROM webhook_events WHERE type = $1 ORDER BY id', ['connection.expiring']);
  }

  async function expiringFor(connectionId: string) {
    return (await expiringEvents()).map((e) => JSON.parse(e.payload)).filter((p) => p.data.connection.id === connectionId);
  }

  it('announces an unrefreshable credential expiring within the horizon once, with the public Connection record', async () => {
    const now = Date.now();
    const expiring = await attach({ type: 'oauth2', access_token: 'at-1', expires_at: now + DAY });
    const webhook = await h().request({ method: 'POST', url: '/v1/webhooks', payload: { url: 'https://93.184.215.14/hooks' } });
    expect(webhook.statusCode).to.equal(200);

    expect(await scanExpiringCredentials(h().gateway, now)).to.equal(1);
    expect(await scanExpiringCredentials(h().gateway, now + HOUR)).to.equal(0);
    const events = await expiringFor(expiring.id);
    expect(events).to.have.length(1);
    expect(events[0]).to.deep.include({ type: 'connection.expiring', data: { connection: expiring } });
    expect(JSON.stringify(events[0])).to.not.include('at-1');

    const [delivery] = await h().gateway.db.select<{ state: string }>('SELECT state FROM webhook_deliveries WHERE event_id = $1 AND webhook_id = $2', [events[0].id, webhook.json.id]);
    expect(delivery.state).to.equal('pending');
    await h().request({ method: 'DELETE', url: `/v1/webhooks/${webhook.json.id}` });
  });

  it('stays silent for refreshable, far-off, already expired, API-key and revoked connections', async () => {
    const now = Date.now();
    const before = (await expiringEvents()).length;
    await attach({ type: 'oauth2', access_token: 'at', refresh_token: 'rt', expires_at: now + HOUR });
    await attach({ type: 'oauth2', access_token: 'at', expires_at: now + 10 * DAY });
    await attach({ type: 'oauth2', access_token: 'at', expires_at: now - HOUR });
    await attach({ type: 'oauth2', access_token: 'at' });
    await attach({ type: 'api_key', secret: 'key-1234' });
    const revoked = await attach({ type: 'oauth2', access_token: 'at', expires_at: now + DAY });
    await revokeConnection(h().gateway, h().organizationId, revoked.id);

    expect(await scanExpiringCredentials(h().gateway, now)).to.equal(0);
    expect(await expiringEvents()).to.have.length(before);
  });

  it('announces again when the connection comes back with a new credential that expires too', async () => {
    const now = Date.now();
    const first = await attach({ type: 'oauth2', access_token: 'at-a', expires_at: now + DAY }, 'renewed');
    await scanExpiringCredentials(h().gateway, now);
    const renewed = await attach({ type: 'oauth2', access_token: 'at-b', expires_at: now + 2 * DAY }, 'renewed');
    expect(renewed.id).to.equal(first.id);
    expect(await scanExpiringCredentials(h().gateway, now)).to.equal(1);
    expect(await expiringFor(first.id)).to.have.length(2);
  });

  it('announces once even when several processes scan at the same moment', async () => {
    const now = Date.now();
    const expiring = await attach({ type: 'oauth2', access_token: 'at', expires_at: now + DAY });
    const counts = await Promise.all([1, 2, 3].map(() => scanExpiringCredentials(h().gateway, now)));
    expect(counts.reduce((a, b) => a + b, 0)).to.equal(1);
    expect(await expiringFor(expiring.id)).to.have.length(1);
  });

  it('runs as a background task of serve, and stops cleanly', async () => {
    const expiring = await attach({ type: 'oauth2', access_token: 'at', expires_at: Date.now() + DAY });
    const task = await expiringScanTask.start(h().gateway);
    try {
      await eventually('the scan to announce the connection', async () => (await expiringFor(expiring.id)).length === 1);
    } finally {
      await task.stop();
    }
  });
}, { config: { webhooks: { expiring_horizon_s: 3 * 86400 } } });
