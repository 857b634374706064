// A pull mirror's source, a push mirror's address and a hook's URL as forgeform reads them (src/kinds/url-userinfo.ts): printed, saved in plan files and
// exported, so never with the user name and password a server may answer in it.
import { describe, expect, it } from 'vitest';
import { hasUserinfo, withoutUserinfo } from '../../src/kinds/url-userinfo.js';

describe('a mirror source without its user info', () => {
  it.each([
    ['https://user:s3cret@host.example.com/x.git', 'https://host.example.com/x.git'],
    ['https://token@host.example.com', 'https://host.example.com'],
    // Go's url.Parse takes the last "@" of the authority: a password may hold one.
    ['https://user:s3c@ret@host.example.com:8443/x.git', 'https://host.example.com:8443/x.git'],
    // Junk before the scheme (a hostile answer) does not hide the authority.
    // Blanks around it are dropped (WHATWG), and do not hide the authority either.
    [' \nhttps://user:s3cret@host.example.com/x.git', 'https://host.example.com/x.git'],
    ['xx https://user:s3cret@host.example.com/x.git', 'host.example.com/x.git'],
    // An scp-like address has its user before the host too.
    ['user:s3cret@host.example.com:team/x.git', 'host.example.com:team/x.git'],
    // An "@" after the authority is a path's, a query's or a fragment's, not user info.
    ['https://host.example.com/team/x@y.git', 'https://host.example.com/team/x@y.git'],
    ['https://host.example.com?ref=a@b', 'https://host.example.com?ref=a@b'],
    ['https://host.example.com#a@b', 'https://host.example.com#a@b'],
    ['', ''],
  ])('%j → %j', (answered, read) => {
    expect(withoutUserinfo(answered)).toBe(read);
  });

  // The odd forms of issue 28: each carries the password pw/?#Zq, and none may show it.
  it.each([
    ['a leading space', ' https://user:pw-Zq@host.example.com/x.git', 'https://host.example.com/x.git'],
    ['a tab inside', 'https://us\ter:pw-Zq@host.example.com/x.git', 'https://host.example.com/x.git'],
    ['an unencoded / in the password', 'https://user:pw/-Zq@host.example.com/x.git', 'https://host.example.com/x.git'],
    ['an unencoded ? in the password', 'https://user:pw?-Zq@host.example.com/x.git', 'https://host.example.com/x.git'],
    ['an unencoded # in the password', 'https://user:pw#-Zq@host.example.com/x.git', 'https://host.example.com/x.git'],
    ['digits then / in the password', 'https://user:12/-Zq@host.example.com/x.git', 'https://host.example.com/x.git'],
    ['a fullwidth ＠', 'https://user:pw-Zq＠host.example.com/x.git', 'https://host.example.com/x.git'],
    ['a small ﹫', 'https://user:pw-Zq﹫host.example.com/x.git', 'https://host.example.com/x.git'],
    ['a fullwidth ：', 'https://user：pw-Zq@host.example.com/x.git', 'https://host.example.com/x.git'],
    ['the scp form', 'user:pw-Zq@host.example.com:team/x.git', 'host.example.com:team/x.git'],
    ['a scheme-relative URL', '//user:pw-Zq@host.example.com/x.git', '//host.example.com/x.git'],
    ['backslashes', 'https:\\\\user:pw-Zq@host.example.com/x.git', 'https:\\\\host.example.com/x.git'],
  ])('%s: credentials found and removed', (_, url, shown) => {
    expect(hasUserinfo(url)).toBe(true);
    expect(withoutUserinfo(url)).toBe(shown);
    expect(withoutUserinfo(url, '(sensitive)')).not.toContain('Zq');
  });

  it('finds none in a URL whose "@" is in its path, query or fragment', () => {
    for (const url of ['https://host.example.com/team/x@y.git', 'https://host.example.com/x?ref=a@b', 'https://host.example.com/x#a@b', 'https://host.example.com/x.git'])
      expect(hasUserinfo(url), url).toBe(false);
  });
});
