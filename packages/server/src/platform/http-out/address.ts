import ipaddr from 'ipaddr.js';

/**
 * Which addresses the outbound client may connect to (docs/security.md "Outbound requests"). Classification is
 * ipaddr.js's table of special ranges; only what it calls `unicast` passes, and for IPv6 only global unicast
 * (2000::/3). IPv6 forms that carry an IPv4 address the network may route to it (IPv4-mapped `::ffff:a.b.c.d`,
 * NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are judged by that IPv4 address; IPv4-compatible (`::a.b.c.d`), Teredo
 * and every other special range are refused.
 */

/** Why an address is refused, or undefined when it is a public unicast address. */
export function refusedAddressReason(address: string): string | undefined {
  const text = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  // Zone ids (fe80::1%eth0) are link-local by nature.
  if (text.includes('%')) return 'linkLocal';
  if (!ipaddr.isValid(text)) return 'invalid';
  const parsed = ipaddr.parse(text);
  if (parsed.kind() === 'ipv4') return ipv4Reason(parsed as ipaddr.IPv4);
  return ipv6Reason(parsed as ipaddr.IPv6);
}

function ipv4Reason(ip: ipaddr.IPv4): string | undefined {
  const range = ip.range();
  return range === 'unicast' ? undefined : range;
}

function ipv6Reason(ip: ipaddr.IPv6): string | undefined {
  const range = ip.range();
  const embedded = embeddedIPv4(ip, range);
  if (embedded) {
    const inner = ipv4Reason(embedded);
    return inner ? `${range}:${inner}` : undefined;
  }
  if (range !== 'unicast') return range;
  // Only 2000::/3 is global unicast; the rest (::/8 with IPv4-compatible forms, 4000::/2, ...) is not routable.
  if (!ip.match(ipaddr.IPv6.parse('2000::'), 3)) return 'notGlobal';
  return undefined;
}

/** The IPv4 address an IPv6 form stands for (mapped, NAT64 well-known prefix, 6to4), if any. */
function embeddedIPv4(ip: ipaddr.IPv6, range: string): ipaddr.IPv4 | undefined {
  const p = ip.parts;
  const four = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  if (range === 'ipv4Mapped') return ip.toIPv4Address();
  if (range === 'rfc6052' && p[0] === 0x64 && p[1] === 0xff9b && p[2] === 0)
    return four(p[6] ?? 0, p[7] ?? 0);
  if (range === '6to4') return four(p[1] ?? 0, p[2] ?? 0);
  return undefined;
}

/** One entry of the allow-list: a host name (exact, case-insensitive) or an address range. */
export type AllowEntry = { host: string } | { range: [ipaddr.IPv4 | ipaddr.IPv6, number] };

/** Parses `HTTP_OUT_ALLOW`-style entries: host names, addresses, CIDRs. Throws on a malformed entry. */
export function parseAllowList(entries: readonly string[]): AllowEntry[] {
  return entries
    .map((e) => e.trim())
    .filter(Boolean)
    .map((entry): AllowEntry => {
      const bare = entry.replace(/^\[|\]$/g, '');
      if (bare.includes('/')) return { range: ipaddr.parseCIDR(bare) };
      if (ipaddr.isValid(bare)) {
        const ip = ipaddr.parse(bare);
        return { range: [ip, ip.kind() === 'ipv4' ? 32 : 128] };
      }
      if (!/^[a-z0-9.-]+$/i.test(entry)) throw new Error(`"${entry}" is neither a host name nor an address`);
      return { host: entry.toLowerCase() };
    });
}

/** True when the address falls in an allowed range (an IPv4-mapped IPv6 address matches its IPv4 range too). */
export function addressAllowed(allow: readonly AllowEntry[], address: string): boolean {
  const text = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(text)) return false;
  let ip = ipaddr.parse(text);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress())
    ip = (ip as ipaddr.IPv6).toIPv4Address();
  return allow.some((e) => 'range' in e && e.range[0].kind() === ip.kind() && ip.match(e.range));
}

/** True when the host name is allow-listed by name. */
export function hostAllowed(allow: readonly AllowEntry[], host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return allow.some((e) => 'host' in e && e.host === name);
}
