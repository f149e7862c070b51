// The rewards club: a program of its own beside the shop, with its own members (not the shop's
// customers), as a service merged in from another team keeps its user table. There is no login: a
// member sends "username:password", base64-encoded, in X-Rewards-Auth on every call. With
// signup-balance on, the sign-up copies every column the body names into the new member, points
// included (mass assignment); hardened, it takes only the fields a new member may set.

import crypto from 'node:crypto';
import type { Ctx, TargetState } from '../context';
import { HttpError, json, type Router } from '../http';
import { SCHEMAS } from '../schemas';
import { SIGNUP_LIMIT } from './account';

interface Member {
  id: number;
  username: string;
  displayName: string;
  points: number;
  passwordHash: string;
}

export const REWARDS_AUTH_HEADER = 'X-Rewards-Auth';

const clubs = new WeakMap<TargetState, Map<string, Member>>();
const hash = (password: string) => crypto.createHash('sha256').update(password).digest('hex');
const shown = (m: Member) => ({ id: m.id, username: m.username, displayName: m.displayName, points: m.points });

export function registerRewards(r: Router<Ctx>, t: TargetState): void {
  const members = () => clubs.get(t) ?? clubs.set(t, new Map()).get(t)!;

  r.post('/api/v2/rewards/members', async (ctx) => {
    ctx.throttle('flow-signup', `rewards-signup:${ctx.clientIp}`, SIGNUP_LIMIT, 10 * 60_000);
    const input = ctx.input<{ username: string; password: string; displayName?: string; points?: unknown }>(SCHEMAS.RewardsSignup, { rejectUnknown: !t.has('signup-balance') });
    const club = members();
    if (club.has(input.username)) throw new HttpError(409, 'conflict', 'This username is already a member of the rewards club.');
    const member: Member = { id: club.size + 1, username: input.username, displayName: input.displayName ?? input.username, points: 0, passwordHash: hash(input.password) };
    if (t.has('signup-balance') && typeof input.points === 'number' && Number.isInteger(input.points)) member.points = input.points;
    club.set(member.username, member);
    return json(201, shown(member));
  });

  r.get('/api/v2/rewards/members/me', async (ctx) => {
    const raw = ctx.header(REWARDS_AUTH_HEADER.toLowerCase()) ?? '';
    const decoded = Buffer.from(raw, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const member = colon > 0 ? members().get(decoded.slice(0, colon)) : undefined;
    if (!member || member.passwordHash !== hash(decoded.slice(colon + 1))) throw new HttpError(401, 'unauthorized', `Send your rewards username and password, base64-encoded as "username:password", in ${REWARDS_AUTH_HEADER}.`);
    return json(200, shown(member));
  });
}
