import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isPublicAddress } from './address-policy.js';

const publicAddresses: Array<[string, string]> = [
  ['8.8.8.8', 'Google DNS'],
  ['1.1.1.1', 'Cloudflare'],
  ['13.232.0.1', 'AWS ap-south-1'],
  ['100.63.255.255', 'just below CGNAT'],
  ['100.128.0.0', 'just above CGNAT'],
  ['172.15.255.255', 'just below 172.16/12'],
  ['172.32.0.0', 'just above 172.16/12'],
  ['198.17.255.255', 'just below 198.18/15'],
  ['198.20.0.0', 'just above 198.18/15'],
  ['223.255.255.255', 'last below multicast'],
  ['2606:4700:4700::1111', 'Cloudflare IPv6'],
  ['2404:6800:4009:80b::200e', 'Google IPv6 (Mumbai)'],
  ['::ffff:8.8.8.8', 'IPv4-mapped public IPv4'],
  ['64:ff9b::808:808', 'NAT64 of a public IPv4'],
];

const refused: Array<[string, string]> = [
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', '0.0.0.0/8'],
  ['10.0.0.1', 'private 10/8'],
  ['172.16.0.1', 'private 172.16/12'],
  ['172.31.255.255', 'private 172.16/12'],
  ['192.168.1.1', 'private 192.168/16'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback /8'],
  ['169.254.169.254', 'link-local cloud metadata'],
  ['169.254.0.1', 'link-local'],
  ['100.64.0.1', 'carrier-grade NAT'],
  ['100.127.255.255', 'carrier-grade NAT'],
  ['192.0.0.1', 'IETF protocol assignments 192.0.0.0/24'],
  ['192.0.0.170', 'NAT64 discovery'],
  ['192.0.2.1', 'TEST-NET-1'],
  ['198.51.100.1', 'TEST-NET-2'],
  ['203.0.113.1', 'TEST-NET-3'],
  ['198.18.0.1', 'benchmarking 198.18/15'],
  ['198.19.255.255', 'benchmarking 198.18/15'],
  ['192.88.99.1', '6to4 relay anycast'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast SSDP'],
  ['240.0.0.1', 'reserved 240/4'],
  ['255.255.255.255', 'broadcast'],
  ['::', 'IPv6 unspecified'],
  ['::1', 'IPv6 loopback'],
  ['fe80::1', 'IPv6 link-local'],
  ['fe80::1%eth0', 'IPv6 link-local with zone'],
  ['fc00::1', 'unique local'],
  ['fd12:3456:789a::1', 'unique local'],
  ['fd00:ec2::254', 'AWS IPv6 metadata'],
  ['fec0::1', 'deprecated site-local'],
  ['ff02::1', 'IPv6 multicast'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
  ['::ffff:10.0.0.1', 'IPv4-mapped private'],
  ['::ffff:7f00:1', 'IPv4-mapped loopback, hex spelling'],
  ['::127.0.0.1', 'IPv4-compatible (deprecated, outside 2000::/3)'],
  ['::ffff:0:7f00:1', 'IPv4-translated rfc6145'],
  ['64:ff9b::7f00:1', 'NAT64 of loopback'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 of metadata'],
  ['64:ff9b:1::1', 'local-use NAT64 prefix'],
  ['2002:7f00:1::1', '6to4'],
  ['2001:0:4136:e378::1', 'Teredo'],
  ['2001:db8::1', 'documentation'],
  ['2001:2::1', 'benchmarking'],
  ['100::1', 'discard-only'],
  ['4000::1', 'unallocated, outside 2000::/3'],
  ['3fff::1', 'documentation 3fff::/20'],
  ['5f00::1', 'segment routing'],
];

const notAddresses = ['', 'localhost', 'example.com', '0x7f.1', '2130706433', '017700000001', '127.1', '10.0.0.0/8', '[::1]', ' 8.8.8.8', '8.8.8.8 '];

for (const [ip, what] of publicAddresses) {
  test(`public: ${ip} (${what})`, () => assert.equal(isPublicAddress(ip), true));
}
for (const [ip, what] of refused) {
  test(`refused: ${ip} (${what})`, () => assert.equal(isPublicAddress(ip), false));
}
test('strings that are not canonical IP literals are refused', () => {
  for (const s of notAddresses) assert.equal(isPublicAddress(s), false, JSON.stringify(s));
});
