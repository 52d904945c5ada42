import net from 'node:net';
import { parseAllowList } from './address.js';

/** The outbound client's settings from the environment. */
export interface HttpOutConfig {
  /** `HTTP_OUT_ALLOW`: hosts, addresses or CIDRs reachable although private (comma-separated; tests' loopback). */
  allow: string[];
  /** `HTTP_OUT_RESOLVE`: `name=address` pairs answered before DNS (tests' sites under domain names). */
  hosts: Record<string, string>;
}

/** Reads and checks `HTTP_OUT_ALLOW` and `HTTP_OUT_RESOLVE`; `fail(variable, why)` throws the config error. */
export function readHttpOutConfig(
  env: Record<string, string | undefined>,
  fail: (name: string, why: string) => never,
): HttpOutConfig {
  const allow = (env.HTTP_OUT_ALLOW ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  try {
    parseAllowList(allow);
  } catch (err) {
    fail(
      'HTTP_OUT_ALLOW',
      `must be host names, addresses or CIDRs separated by commas: ${(err as Error).message}`,
    );
  }
  const hosts: Record<string, string> = {};
  for (const pair of (env.HTTP_OUT_RESOLVE ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [name, address] = pair.split('=').map((s) => s.trim());
    if (!name || !address || !net.isIP(address)) fail('HTTP_OUT_RESOLVE', `"${pair}" is not name=address`);
    hosts[name.toLowerCase()] = address;
  }
  return { allow, hosts };
}
