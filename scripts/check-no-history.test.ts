import { describe, expect, it } from 'vitest';
import { findHistory } from './check-no-history.ts';

const matches = (text: string) => findHistory('x.ts', text).map((finding) => finding.match);

describe('check-no-history', () => {
  it('flags numbered sessions, issues and rounds in any case', () => {
    expect(matches('// Session 9 figures')).toEqual(['Session 9']);
    expect(matches('(issue 16) and ISSUE 4')).toEqual(['issue 16', 'ISSUE 4']);
    expect(matches('round 2: signals')).toEqual(['round 2']);
    expect(matches('see issue #12, issue#7')).toEqual(['issue #12', 'issue#7']);
    expect(matches('the session-6 code, issues 12-17')).toEqual(['session-6', 'issues 12']);
  });

  it('leaves the words alone when no number follows', () => {
    expect(matches('a login session ends; sessions are revoked; session: 5 minutes')).toEqual([]);
    expect(matches('no issue here; a round trip; Math.round(2.5); session_2')).toEqual([]);
    expect(matches('sessionId 5, issuer 3, rounding 4')).toEqual([]);
  });

  it('names the file and the line', () => {
    expect(findHistory('docs/a.md', 'one\ntwo (issue 3)\n')).toEqual([
      { file: 'docs/a.md', line: 2, match: 'issue 3' },
    ]);
  });
});
