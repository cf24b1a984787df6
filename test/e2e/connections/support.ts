import { newId } from '../../../src/common/ids';
import type { Connection } from '../../../src/modules/connections/connections.types';
import { createUser, type UserOverrides } from '../../support/factories';
import type { TestApp } from '../../support/test-app';

export interface Member {
  uid: string;
  name: string;
  auth: string;
}

export async function member(t: TestApp, overrides: UserOverrides = {}): Promise<Member> {
  const user = await createUser(t.db, overrides);
  return { uid: user.uid, name: user.name, auth: await t.bearer(user.uid) };
}

export async function request(t: TestApp, from: Member, to: Member | string): Promise<Connection> {
  const res = await t.request<{ data: Connection }>('POST', '/connections', {
    auth: from.auth,
    body: { receiverName: typeof to === 'string' ? to : to.name },
  });
  if (res.status !== 200) throw new Error(`request failed: ${res.status} ${res.body.message}`);
  return res.body.data;
}

export async function decide(t: TestApp, who: Member, id: string, status: string) {
  return t.request('PATCH', `/connections/${id}`, { auth: who.auth, body: { status } });
}

/** A record written straight to the table (for states a test needs many of). */
export async function seedConnection(
  t: TestApp,
  initiatorUid: string,
  receiverUid: string,
  status: 'pending' | 'accepted' | 'rejected' | 'blocked',
  at = t.clock.now(),
): Promise<string> {
  const id = newId();
  await t.db
    .insertInto('connections')
    .values({
      id,
      initiator_uid: initiatorUid,
      receiver_uid: receiverUid,
      status,
      created_at: at,
      last_modified: at,
    })
    .execute();
  return id;
}

export async function storedStatus(t: TestApp, id: string): Promise<string | undefined> {
  const row = await t.db.selectFrom('connections').select('status').where('id', '=', id).executeTakeFirst();
  return row?.status;
}
