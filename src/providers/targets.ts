import dns from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import { Agent, type Dispatcher } from 'undici';
import { InputRefused, TargetRefused } from './errors.js';

/**
 * Where the gateway agrees to send webhooks (server-side request forgery rules, docs/webhooks.md):
 * public unicast addresses over HTTPS. `allowPrivate` (config webhooks.allow_private_targets, for
 * development and tests) also accepts plain HTTP and loopback or private addresses; link-local,
 * cloud-metadata, unspecified and reserved addresses stay refused whatever the switch says. The
 * ranges follow IANA's IPv4 and IPv6 special-purpose address registries.
 */

type AddressClass = 'metadata' | 'unspecified' | 'loopback' | 'link-local' | 'private' | 'reserved';

function blockList(cidrs: string[], type: 'ipv4' | 'ipv6'): net.BlockList {
  const list = new net.BlockList();
  for (const cidr of cidrs) {
    const [address, prefix] = cidr.split('/');
    list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

// Checked in this order, so the metadata addresses are named as such rather than as link-local or private.
const ipv4Classes: Array<[AddressClass, net.BlockList]> = [
  ['metadata', blockList(['169.254.169.254/32', '169.254.170.2/32', '100.100.100.200/32'], 'ipv4')],
  ['unspecified', blockList(['0.0.0.0/8'], 'ipv4')],
  ['loopback', blockList(['127.0.0.0/8'], 'ipv4')],
  ['link-local', blockList(['169.254.0.0/16'], 'ipv4')],
  ['private', blockList(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10'], 'ipv4')],
  [
    'reserved',
    blockList(
      // IETF protocol assignments, documentation, the 6to4 relay anycast, benchmarking, multicast, and 240/4 with the broadcast address.
      ['192.0.0.0/24', '192.0.2.0/24', '192.88.99.0/24', '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24', '224.0.0.0/4', '240.0.0.0/4'],
      'ipv4',
    ),
  ],
];

const ipv6Classes: Array<[AddressClass, net.BlockList]> = [
  ['metadata', blockList(['fd00:ec2::254/128'], 'ipv6')],
  ['unspecified', blockList(['::/128'], 'ipv6')],
  ['loopback', blockList(['::1/128'], 'ipv6')],
  ['link-local', blockList(['fe80::/10'], 'ipv6')],
  ['private', blockList(['fc00::/7'], 'ipv6')],
  [
    'reserved',
    blockList(
      // Inside global unicast (2000::/3): IETF protocol assignments (Teredo among them), documentation.
      // Everything outside it (IPv4-compatible ::/96, discard 100::/64, local-use NAT64 64:ff9b:1::/48,
      // site-local fec0::/10, multicast ff00::/8, ...) is not global unicast at all.
      ['2001::/23', '2001:db8::/32', '3fff::/20'],
      'ipv6',
    ),
  ],
];

const globalUnicast = blockList(['2000::/3'], 'ipv6');

/** The eight 16-bit groups of a valid IPv6 address (a zone index ignored, a dotted IPv4 tail read as two groups). */
function ipv6Groups(address: string): number[] {
  let text = address.split('%')[0];
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const left = groups(head);
  const right = groups(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const ipv4Of = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/**
 * IPv6 ranges that carry an IPv4 address, and where: the packets end up at that IPv4 address, so it
 * is judged as one. `always` ranges are refused even when the embedded address is public, as IANA
 * marks them not globally reachable.
 */
const embeddings: Array<{ range: net.BlockList; ipv4: (groups: number[]) => string; always: boolean }> = [
  // IPv4-mapped ::ffff:0:0/96 and IPv4-translated ::ffff:0:0:0/96: a socket to one reaches the IPv4 address itself.
  { range: blockList(['::ffff:0:0/96', '::ffff:0:0:0/96'], 'ipv6'), ipv4: (g) => ipv4Of(g[6], g[7]), always: true },
  // NAT64's well-known prefix: a NAT64 gateway forwards to the IPv4 address in the last 32 bits.
  { range: blockList(['64:ff9b::/96'], 'ipv6'), ipv4: (g) => ipv4Of(g[6], g[7]), always: false },
  // 6to4: the relay forwards to the IPv4 address in bits 16 to 47.
  { range: blockList(['2002::/16'], 'ipv6'), ipv4: (g) => ipv4Of(g[1], g[2]), always: false },
];

interface Refusal {
  kind: AddressClass;
  /** The IPv4 address an IPv6 one carries, when that is what was judged. */
  embedded?: string;
}

const classOf = (classes: Array<[AddressClass, net.BlockList]>, address: string, type: 'ipv4' | 'ipv6') =>
  classes.find(([, list]) => list.check(address, type))?.[0] ?? null;

function classify(address: string): Refusal | null {
  if (net.isIP(address) === 4) {
    const kind = classOf(ipv4Classes, address, 'ipv4');
    return kind && { kind };
  }
  const embedding = embeddings.find(({ range }) => range.check(address, 'ipv6'));
  if (embedding) {
    const embedded = embedding.ipv4(ipv6Groups(address));
    const kind = classOf(ipv4Classes, embedded, 'ipv4');
    if (kind) return { kind, embedded };
    return embedding.always ? { kind: 'reserved' } : null;
  }
  const kind = classOf(ipv6Classes, address, 'ipv6') ?? (globalUnicast.check(address, 'ipv6') ? null : 'reserved');
  return kind && { kind };
}

const allowedWithSwitch = new Set<AddressClass>(['loopback', 'private']);

/** Why an IP address may not receive webhooks, or null when it may. */
function refusedAddress(address: string, allowPrivate: boolean): Refusal | null {
  const refusal = classify(address);
  return refusal && !(allowPrivate && allowedWithSwitch.has(refusal.kind)) ? refusal : null;
}

const described = ({ kind, embedded }: Refusal) =>
  `${embedded ? `an address that leads to ${embedded}, ` : ''}${kind === 'unspecified' ? 'an' : 'a'} ${kind} address`;

/** Why a host's addresses may not receive webhooks, or null when every one may. */
function addressesRefusal(host: string, addresses: string[], allowPrivate: boolean): string | null {
  for (const address of addresses) {
    const refusal = refusedAddress(address, allowPrivate);
    if (refusal) return host === address ? `${address} is ${described(refusal)}` : `${host} resolves to ${address}, ${described(refusal)}`;
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


/** Every address of a name, as the operating system's resolver gives them (hosts file, then DNS). */
async function resolveAll(host: string): Promise<string[]> {
  const found = await dns.promises.lookup(host, { all: true, verbatim: true });
  return found.map((entry) => entry.address);
}

/**
 * Checks a target URL before it is kept (a webhook at registration): HTTPS (unless the switch is on), no
 * credentials, and a host whose every address is acceptable. Returns the normalised URL; throws InputRefused
 * for what is not a URL and TargetRefused for a URL no outbound request may reach.
 */
export async function checkTarget(raw: string, allowPrivate: boolean): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InputRefused(`url "${raw}" is not a URL`, [{ name: 'url', reason: 'must be an absolute URL' }]);
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) throw new TargetRefused('the URL must use https');
  if (url.username || url.password) throw new TargetRefused('the URL must not carry credentials');
  const host = hostOf(url);
  const byHost = hostRefusal(host, allowPrivate);
  if (byHost) throw new TargetRefused(byHost);
  if (!net.isIP(host)) {
    const addresses = await resolveAll(host).catch(() => []);
    if (addresses.length === 0) throw new TargetRefused(`${host} does not resolve`);
    const reason = addressesRefusal(host, addresses, allowPrivate);
    if (reason) throw new TargetRefused(reason);
  }
  return url.toString();
}

/**
 * The checks repeated when a request is sent, against DNS rebinding: `hostRefusal` for what the URL itself
 * shows (IP literals never reach a lookup), and `lookup` for the socket, so the address connected to
 * is the address checked.
 */
export interface TargetGuard {
  hostRefusal(url: URL): string | null;
  /** Connections whose every socket connects only to an address the guard accepts. */
  dispatcher: Dispatcher;
  close(): Promise<void>;
}

export function targetGuard(allowPrivate: boolean): TargetGuard {
  const lookup: LookupFunction = (hostname, options, callback) => {
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
  };
  const dispatcher = new Agent({ keepAliveTimeout: 10_000, connect: { lookup } });
  return {
    hostRefusal: (url) => hostRefusal(hostOf(url), allowPrivate),
    dispatcher,
    close: () => dispatcher.close(),
  };
}
