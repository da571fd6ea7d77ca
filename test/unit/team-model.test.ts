import { describe, expect, it } from 'vitest';
import { deviceWords } from '#app/device-words.ts';
import type { Member, TeamView } from '#app/model.ts';
import { isSoleOwner, pendingInvitesWords, teamSummary } from '#app/team-model.ts';

const member = (role: Member['role'], lastSignInAt: string | null = '2026-11-01T00:00:00Z') => ({
  userId: crypto.randomUUID(),
  email: 'x@example.com',
  name: '',
  role,
  createdAt: '2026-11-01T00:00:00Z',
  lastSignInAt,
});

describe('the team in words', () => {
  it('counts the invitations pending: members who never signed in', () => {
    expect(pendingInvitesWords([member('owner')])).toBe('');
    expect(pendingInvitesWords([member('owner'), member('member', null)])).toBe('1 invite pending');
    expect(
      pendingInvitesWords([member('owner'), member('member', null), member('owner', null)]),
    ).toBe('2 invites pending');
  });

  it('the only owner is the sole owner; with two owners neither is', () => {
    const alone = member('owner');
    const them = [alone, member('member')];
    expect(isSoleOwner(alone, them)).toBe(true);
    expect(isSoleOwner(them[1]!, them)).toBe(false);
    const two = [alone, member('owner')];
    expect(two.some((each) => isSoleOwner(each, two))).toBe(false);
  });

  it('says the plan, members, invitations and forms in words', () => {
    const team = {
      plan: 'free',
      memberCount: 3,
      formCount: 2,
      formLimit: 3,
    } as TeamView;
    expect(
      teamSummary(team, [member('owner'), member('member', null), member('member', null)]),
    ).toBe('Free plan · 3 members · 2 invites pending · 2 of 3 forms');
    expect(
      teamSummary({ ...team, plan: 'pro', memberCount: 1, formCount: 1, formLimit: null }),
    ).toBe('Pro plan · 1 member · 1 form');
  });
});

describe('sessions by browser and system', () => {
  it.each([
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0',
      'Firefox on Windows',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
      'Safari on iPhone',
    ],
    [
      'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
      'Safari on iPad',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
      'Safari on macOS',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36',
      'Chrome on Android',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 Edg/130.0.0.0',
      'Microsoft Edge on Windows',
    ],
    ['curl/8.5.0', 'An unnamed browser or program'],
    ['', 'An unnamed browser or program'],
    [null, 'An unnamed browser or program'],
  ])('%s → %s', (userAgent, words) => {
    expect(deviceWords(userAgent)).toBe(words);
  });
});
