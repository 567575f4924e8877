import { expect } from 'chai';
import { eachDialect, problem, type Harness } from '../support/harness.js';

// Every target here is an address literal that is refused from the URL alone: no lookup, no connection.
const register = (h: Harness, url: string) => h.request({ method: 'POST', url: '/v1/webhooks', payload: { url } });

/** [address, what the refusal says], one per special-purpose range that is not public unicast. */
const nonPublic: Array<[string, string]> = [
  ['0.1.2.3', 'an unspecified address'],
  ['10.1.2.3', 'a private address'],
  ['100.64.1.1', 'a private address'],
  ['127.0.0.2', 'a loopback address'],
  ['169.254.1.1', 'a link-local address'],
  ['172.31.255.254', 'a private address'],
  ['192.0.0.8', 'a reserved address'],
  ['192.0.2.1', 'a reserved address'],
  ['192.88.99.1', 'a reserved address'],
  ['192.168.1.1', 'a private address'],
  ['198.19.0.1', 'a reserved address'],
  ['198.51.100.7', 'a reserved address'],
  ['203.0.113.9', 'a reserved address'],
  ['224.0.0.251', 'a reserved address'],
  ['240.0.0.1', 'a reserved address'],
  ['255.255.255.255', 'a reserved address'],
  ['[::]', 'an unspecified address'],
  ['[::1]', 'a loopback address'],
  ['[::ffff:127.0.0.1]', 'leads to 127.0.0.1, a loopback address'],
  ['[::ffff:10.0.0.1]', 'leads to 10.0.0.1, a private address'],
  // IPv4-mapped is never globally reachable, whatever address it carries.
  ['[::ffff:93.184.215.14]', 'a reserved address'],
  // IPv4-translated (::ffff:0:0:0/96).
  ['[::ffff:0:a00:1]', 'leads to 10.0.0.1, a private address'],
  ['[::ffff:0:7f00:1]', 'leads to 127.0.0.1, a loopback address'],
  ['[::10.0.0.1]', 'a reserved address'],
  ['[64:ff9b::10.0.0.1]', 'leads to 10.0.0.1, a private address'],
  ['[64:ff9b::a9fe:a9fe]', 'leads to 169.254.169.254, a metadata address'],
  ['[64:ff9b:1::a00:1]', 'a reserved address'],
  ['[100::1]', 'a reserved address'],
  ['[2001::1]', 'a reserved address'],
  ['[2001:2::1]', 'a reserved address'],
  ['[2001:1ff::1]', 'a reserved address'],
  ['[2001:db8::1]', 'a reserved address'],
  ['[2002:a00:1::1]', 'leads to 10.0.0.1, a private address'],
  ['[2002:7f00:1::1]', 'leads to 127.0.0.1, a loopback address'],
  ['[2002:c000:201::1]', 'leads to 192.0.2.1, a reserved address'],
  ['[3fff::1]', 'a reserved address'],
  ['[fc00::1]', 'a private address'],
  ['[fd12:3456::1]', 'a private address'],
  ['[fe80::1]', 'a link-local address'],
  ['[febf::1]', 'a link-local address'],
  ['[fec0::1]', 'a reserved address'],
  ['[feff::1]', 'a reserved address'],
  ['[ff02::1]', 'a reserved address'],
  ['[4000::1]', 'a reserved address'],
];

eachDialect('webhook targets in special-purpose address ranges', (h) => {
  for (const [host, reason] of nonPublic) {
    it(`refuses ${host}: ${reason}`, async () => {
      const body = problem(await register(h(), `https://${host}/hook`), 422, 'webhook_target_refused');
      expect(body.detail).to.match(/^webhook target refused: /);
      expect(body.detail).to.include(reason);
    });
  }

  it('registers none of them', async () => {
    const listed = await h().request({ method: 'GET', url: '/v1/webhooks' });
    expect(listed.json.webhooks).to.deep.equal([]);
  });
}, { config: { webhooks: { max_per_org: 1000 }, rate_limits: { webhooks: 1000 } } });

eachDialect('webhook targets with private targets allowed (development switch)', (h) => {
  // The switch lets loopback and private addresses through, also when they come inside an IPv6 address...
  it('accepts an IPv4-mapped loopback address', async () => {
    expect((await register(h(), 'http://[::ffff:127.0.0.1]:9/hook')).statusCode).to.equal(200);
  });

  // ...but never a metadata, link-local, site-local or reserved one.
  for (const host of ['[::ffff:169.254.169.254]', '[::ffff:0:a9fe:a9fe]', '[64:ff9b::a9fe:a9fe]', '[fec0::1]', '[::ffff:192.0.2.1]', '[2001:db8::1]']) {
    it(`still refuses ${host}`, async () => {
      problem(await register(h(), `http://${host}/hook`), 422, 'webhook_target_refused');
    });
  }
}, { config: { webhooks: { allow_private_targets: true, max_per_org: 1000 }, rate_limits: { webhooks: 1000 } } });
