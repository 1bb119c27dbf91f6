import assert from 'node:assert/strict';
import { test } from 'node:test';
import { destinationUrlIssue } from './destination-url.js';

const strict = { allowPrivateNetworks: false };

test('public HTTPS URLs are accepted', () => {
  for (const url of ['https://merchant.example.com/hooks/tijori', 'https://8.8.8.8/cb', 'https://[2001:4860:4860::8888]/cb', 'https://example.com:8443/x?y=1']) {
    assert.equal(destinationUrlIssue(url, strict), null, url);
  }
});

test('http, malformed URLs and credentials are refused', () => {
  for (const url of ['http://merchant.example.com/', 'ftp://x.example/', 'merchant.example.com', 'https://', 'https://user:pw@example.com/', 'https://exa mple.com/', `https://example.com/${'a'.repeat(2100)}`]) {
    assert.notEqual(destinationUrlIssue(url, strict), null, url);
  }
});

test('literal non-public addresses and localhost are refused unless private networks are allowed', () => {
  const urls = [
    'https://127.0.0.1/',
    'https://10.1.2.3/',
    'https://192.168.0.10:8443/cb',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/',
    'https://[fd00:ec2::254]/',
    'https://[::ffff:127.0.0.1]/',
    'https://localhost:9000/',
    'https://api.localhost/',
    'https://0x7f.1/',
  ];
  for (const url of urls) {
    assert.match(destinationUrlIssue(url, strict) ?? '', /public|numeric/, url);
    if (!url.includes('0x7f')) assert.equal(destinationUrlIssue(url, { allowPrivateNetworks: true }), null, url);
  }
});

test('http:// to loopback/private hosts only with allowLocalHttp, never to a public address', () => {
  const local = { allowPrivateNetworks: true, allowLocalHttp: true };
  for (const url of ['http://127.0.0.1:3000/tijori/payin', 'http://localhost:3000/x', 'http://[::1]:3000/', 'http://192.168.1.20/cb', 'http://api.localhost/cb']) {
    assert.equal(destinationUrlIssue(url, local), null, url);
    // The switch for private networks alone (as in production) does not let plain http through.
    assert.match(destinationUrlIssue(url, { allowPrivateNetworks: true }) ?? '', /https:\/\/.*http:\/\/ is accepted only/, url);
    assert.match(destinationUrlIssue(url, strict) ?? '', /https:\/\//, url);
  }
  // A public address, or a name the URL does not show to be local, needs https.
  for (const url of ['http://8.8.8.8/cb', 'http://[2001:4860:4860::8888]/', 'http://merchant.example.com/hooks', 'http://receiver/cb']) {
    assert.match(destinationUrlIssue(url, local) ?? '', /must be https:\/\/ for this host/, url);
  }
  assert.notEqual(destinationUrlIssue('http://user:pw@127.0.0.1/', local), null);
});
