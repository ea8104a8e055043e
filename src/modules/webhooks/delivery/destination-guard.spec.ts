import { endpointUrlProblem, isPublicAddress } from './destination-guard';

/** SSRF guard of live webhook endpoints (API.md §13: "Live endpoints need https and a public address"). */
describe('isPublicAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback /8'],
    ['10.0.0.1', 'private 10/8'],
    ['10.255.255.255', 'private 10/8'],
    ['172.16.0.1', 'private 172.16/12 (low end)'],
    ['172.20.10.5', 'private 172.16/12'],
    ['172.31.255.254', 'private 172.16/12 (high end)'],
    ['192.168.0.1', 'private 192.168/16'],
    ['192.168.255.1', 'private 192.168/16'],
    ['169.254.169.254', 'cloud metadata / link-local'],
    ['169.254.0.1', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT (high end)'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'IPv6 link-local'],
    ['fc00::1', 'IPv6 unique local fc00::/7'],
    ['fd00::1', 'IPv6 unique local fd00::'],
    ['fd12:3456:789a::1', 'IPv6 unique local'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::FFFF:169.254.169.254', 'IPv4-mapped metadata (upper case)'],
    ['ff02::1', 'IPv6 multicast'],
    ['localhost', 'not an address at all'],
    ['', 'empty'],
  ])('%s (%s) is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    ['8.8.8.8'],
    ['1.1.1.1'],
    ['93.184.216.34'],
    ['172.15.255.255'], // just below 172.16/12
    ['172.32.0.1'], // just above 172.16/12
    ['100.63.255.255'], // just below 100.64/10
    ['100.128.0.1'], // just above 100.64/10
    ['11.0.0.1'],
    ['2606:4700::1111'],
    ['2001:4860:4860::8888'],
    ['::ffff:8.8.8.8'],
  ])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('endpointUrlProblem', () => {
  const live = (url: string) => endpointUrlProblem(url, true);
  const sandbox = (url: string) => endpointUrlProblem(url, false);

  it('accepts a public https URL in live mode', () => {
    expect(live('https://93.184.216.34/x')).toBeNull();
    expect(live('https://hooks.example.com/payments?x=1')).toBeNull();
    expect(live('https://[2606:4700::1111]/hook')).toBeNull();
  });

  it('refuses plain http in live mode', () => {
    expect(live('http://93.184.216.34/x')).toEqual(expect.any(String));
    expect(live('http://hooks.example.com/x')).toEqual(expect.any(String));
  });

  it.each([
    'https://127.0.0.1/hook',
    'https://127.0.0.1:8443/hook',
    'https://localhost/hook',
    'https://LOCALHOST:3000/hook',
    'https://api.localhost/hook',
    'https://10.0.0.1/hook',
    'https://172.16.5.4/hook',
    'https://192.168.1.10/hook',
    'https://169.254.169.254/latest/meta-data/',
    'https://100.64.1.1/hook',
    'https://0.0.0.0/hook',
    'https://[::1]/hook',
    'https://[fe80::1]/hook',
    'https://[fd00::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://2130706433/hook', // 127.0.0.1 written as one number: URL normalises it
    'https://0x7f.0.0.1/hook', // hex form of 127.0.0.1
  ])('refuses the non-public live destination %s', (url) => {
    expect(live(url)).toEqual(expect.any(String));
  });

  it('lets sandbox endpoints use localhost and plain http', () => {
    expect(sandbox('http://localhost:1234')).toBeNull();
    expect(sandbox('http://127.0.0.1:4567/hook')).toBeNull();
    expect(sandbox('https://localhost/hook')).toBeNull();
  });

  it('refuses credentials in the URL in both modes', () => {
    expect(live('https://user:pass@hooks.example.com/x')).toEqual(expect.any(String));
    expect(live('https://user@hooks.example.com/x')).toEqual(expect.any(String));
    expect(sandbox('http://user:pass@localhost:1234/x')).toEqual(expect.any(String));
  });

  it('refuses other schemes and non-URLs in both modes', () => {
    for (const url of ['ftp://hooks.example.com/x', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url', '/relative/path', '']) {
      expect(live(url)).toEqual(expect.any(String));
      expect(sandbox(url)).toEqual(expect.any(String));
    }
  });
});
