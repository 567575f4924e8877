import dns from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import { GatewayError } from '../errors.js';

/**
 * Where the gateway agrees to send webhooks (server-side request forgery rules, docs/webhooks.md):
 * public unicast addresses over HTTPS. `allowPrivate` (config webhooks.allow_private_targets, for
 * development and tests) also accepts plain HTTP and loopback or private addresses; link-local,
 * cloud-metadata, unspecified and reserved addresses stay refused whatever the switch says.
 */

type AddressClass = 'metadata' | 'unspecified' | 'loopback' | 'link-local' | 'private' | 'reserved';

function blockList(ipv4: string[], ipv6: string[]): net.BlockList {
  const list = new net.BlockList();
  const add = (cidr: string, type: 'ipv4' | 'ipv6') => {
    const [address, prefix] = cidr.split('/');
    list.addSubnet(address, Number(prefix), type);
  };
  ipv4.forEach((cidr) => add(cidr, 'ipv4'));
  ipv6.forEach((cidr) => add(cidr, 'ipv6'));
  return list;
}

// Checked in this order, so the metadata addresses are named as such rather than as link-local or private.
// BlockList also matches IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) against the IPv4 rules.
const classes: Array<[AddressClass, net.BlockList]> = [
  ['metadata', blockList(['169.254.169.254/32', '169.254.170.2/32', '100.100.100.200/32'], ['fd00:ec2::254/128'])],
  ['unspecified', blockList(['0.0.0.0/8'], ['::/128'])],
  ['loopback', blockList(['127.0.0.0/8'], ['::1/128'])],
  ['link-local', blockList(['169.254.0.0/16'], ['fe80::/10'])],
  ['private', blockList(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10'], ['fc00::/7'])],
  [
    'reserved',
    blockList(
      ['192.0.0.0/24', '192.0.2.0/24', '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24', '224.0.0.0/4', '240.0.0.0/4'],
      // Multicast, documentation, discard, and the prefixes that embed an IPv4 address (which could be an internal one).
      ['ff00::/8', '2001:db8::/32', '100::/64', '::/96', '64:ff9b::/96', '64:ff9b:1::/48', '2002::/16'],
    ),
  ],
];

const allowedWithSwitch = new Set<AddressClass>(['loopback', 'private']);

/** The class of an IP address that may not receive webhooks, or null when it may. */
function refusedClass(address: string, allowPrivate: boolean): AddressClass | null {
  const type = net.isIP(address) === 4 ? 'ipv4' : 'ipv6';
  const found = classes.find(([, list]) => list.check(address, type));
  if (!found || (allowPrivate && allowedWithSwitch.has(found[0]))) return null;
  return found[0];
}

const described = (kind: AddressClass) => `${kind === 'unspecified' ? 'an' : 'a'} ${kind} address`;

/** Why a host's addresses may not receive webhooks, or null when every one may. */
function addressesRefusal(host: string, addresses: string[], allowPrivate: boolean): string | null {
  for (const address of addresses) {
    const kind = refusedClass(address, allowPrivate);
    if (kind) return host === address ? `${address} is ${described(kind)}` : `${host} resolves to ${address}, ${described(kind)}`;
  }
  return null;
}

const metadataHosts = new Set(['metadata.google.internal', 'metadata']);

/** Host names refused (or known never to resolve) without asking DNS; RFC 6761 reserves .localhost and .invalid. */
function nameRefusal(host: string, allowPrivate: boolean): string | null {
  if (metadataHosts.has(host)) return `${host} is a cloud metadata host`;
  if (host.endsWith('.localhost') && !allowPrivate) return `${host} is a loopback name`;
  if (host === 'invalid' || host.endsWith('.invalid')) return `${host} does not resolve`;
  return null;
}

/** The URL's host as DNS and net see it: brackets of IPv6 literals and a trailing dot removed, lower case. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase();
}

/** Why a host may not receive webhooks from its name or literal address alone; null leaves it to its resolved addresses. */
function hostRefusal(host: string, allowPrivate: boolean): string | null {
  return nameRefusal(host, allowPrivate) ?? (net.isIP(host) ? addressesRefusal(host, [host], allowPrivate) : null);
}

function refused(detail: string): GatewayError {
  return new GatewayError('webhook_target_refused', `webhook target refused: ${detail}`);
}

/** Every address of a name, as the operating system's resolver gives them (hosts file, then DNS). */
async function resolveAll(host: string): Promise<string[]> {
  const found = await dns.promises.lookup(host, { all: true, verbatim: true });
  return found.map((entry) => entry.address);
}

/**
 * Checks a webhook URL at registration: HTTPS (unless the switch is on), no credentials, and a host
 * whose every address is acceptable. Returns the normalised URL; throws 422 webhook_target_refused.
 */
export async function checkWebhookTarget(raw: string, allowPrivate: boolean): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused('the URL cannot be parsed');
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) throw refused('the URL must use https');
  if (url.username || url.password) throw refused('the URL must not carry credentials');
  const host = hostOf(url);
  const byHost = hostRefusal(host, allowPrivate);
  if (byHost) throw refused(byHost);
  if (!net.isIP(host)) {
    const addresses = await resolveAll(host).catch(() => []);
    if (addresses.length === 0) throw refused(`${host} does not resolve`);
    const reason = addressesRefusal(host, addresses, allowPrivate);
    if (reason) throw refused(reason);
  }
  return url.toString();
}

/** A target refused at delivery time; its message is safe to record as the delivery's last_error. */
class TargetRefused extends Error {
  readonly code = 'ETARGETREFUSED';
}

/**
 * The checks repeated at delivery time, against DNS rebinding: `hostRefusal` for what the URL itself
 * shows (IP literals never reach a lookup), and `lookup` for the socket, so the address connected to
 * is the address checked.
 */
export function deliveryGuard(allowPrivate: boolean): { hostRefusal(url: URL): string | null; lookup: LookupFunction } {
  return {
    hostRefusal: (url) => hostRefusal(hostOf(url), allowPrivate),
    lookup(hostname, options, callback) {
      dns.lookup(hostname, { ...options, all: true, verbatim: true }, (err, found) => {
        if (err) return callback(err, '', 0);
        const entries = found as dns.LookupAddress[];
        const reason = entries.length
          ? addressesRefusal(hostname, entries.map((entry) => entry.address), allowPrivate)
          : `${hostname} does not resolve`;
        if (reason) return callback(new TargetRefused(reason) as NodeJS.ErrnoException, '', 0);
        if (options.all) return (callback as unknown as (e: null, all: dns.LookupAddress[]) => void)(null, entries);
        callback(null, entries[0].address, entries[0].family);
      });
    },
  };
}
