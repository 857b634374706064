// A pull mirror's source as forgeform reads it (src/kinds/repo/read.ts): printed, saved in plan files and
// exported, so never with the user name and password a server may answer in it.
import { describe, expect, it } from 'vitest';
import { withoutUserinfo } from '../../src/kinds/repo/read.js';

describe('a mirror source without its user info', () => {
  it.each([
    ['https://user:s3cret@host.example.com/x.git', 'https://host.example.com/x.git'],
    ['https://token@host.example.com', 'https://host.example.com'],
    // Go's url.Parse takes the last "@" of the authority: a password may hold one.
    ['https://user:s3c@ret@host.example.com:8443/x.git', 'https://host.example.com:8443/x.git'],
    // Junk before the scheme (a hostile answer) does not hide the authority.
    [' \nhttps://user:s3cret@host.example.com/x.git', ' \nhttps://host.example.com/x.git'],
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
});
