import { getApps, initializeApp } from 'firebase-admin/app';
import { getAuth as adminAuth } from 'firebase-admin/auth';
import { IdentityProvider } from '../../src/common/auth/identity-provider';
import { createUser } from '../support/factories';
import { ProbeModule } from '../support/probe.module';
import { createTestApp, type TestApp } from '../support/test-app';

const PROJECT = 'demo-typing';
const EMULATOR = process.env.FIREBASE_AUTH_EMULATOR_HOST;

/** The test's own admin handle on the emulator (the provider under test uses its own app instance). */
function getAuth() {
  return adminAuth(getApps().find((a) => a.name === '[DEFAULT]') ?? initializeApp({ projectId: PROJECT }));
}

interface SignInAnswer {
  idToken: string;
  localId: string;
}

async function emulator<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(
    `http://${EMULATOR}/identitytoolkit.googleapis.com/v1/${path}?key=fake-api-key`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    },
  );
  if (!response.ok) throw new Error(`emulator ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

const signUp = (email: string) =>
  emulator<SignInAnswer>('accounts:signUp', { email, password: 'secret-password', returnSecureToken: true });
const signIn = (email: string) =>
  emulator<SignInAnswer>('accounts:signInWithPassword', {
    email,
    password: 'secret-password',
    returnSecureToken: true,
  });

/** An unsigned emulator-style token with chosen claims (the emulator accepts alg "none"). */
function unsignedToken(claims: Record<string, unknown>): string {
  const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.`;
}

describe('Firebase identity provider against the Auth emulator', () => {
  let t: TestApp;
  const now = () => Date.now();

  beforeAll(async () => {
    if (!EMULATOR) throw new Error('FIREBASE_AUTH_EMULATOR_HOST is not set: run `npm run test:firebase`');
    t = await createTestApp({
      extraModules: [ProbeModule],
      env: { authProvider: 'firebase', firebase: { projectId: PROJECT } },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('accepts an ID token of a signed-up user', async () => {
    const { idToken, localId } = await signUp(`ok-${now()}@example.test`);
    await createUser(t.db, { uid: localId });
    const res = await t.request('GET', '/probe/bearer', { auth: `Bearer ${idToken}` });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ type: 'Bearer', uid: localId });
  });

  it('answers a valid token of a user unknown to the service with 404 User not found', async () => {
    const { idToken } = await signUp(`unknown-${now()}@example.test`);
    const res = await t.request('GET', '/probe/bearer', { auth: `Bearer ${idToken}` });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('User not found');
  });

  it('refuses an expired token with 401 Token expired - please login again', async () => {
    const { localId } = await signUp(`expired-${now()}@example.test`);
    await createUser(t.db, { uid: localId });
    const issued = Math.floor(now() / 1000) - 7200;
    const token = unsignedToken({
      iss: `https://securetoken.google.com/${PROJECT}`,
      aud: PROJECT,
      sub: localId,
      user_id: localId,
      auth_time: issued,
      iat: issued,
      exp: issued + 3600,
    });
    const res = await t.request('GET', '/probe/bearer', { auth: `Bearer ${token}` });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Token expired - please login again');
  });

  it('refuses a token issued before the user revoked their sessions', async () => {
    const email = `revoked-${now()}@example.test`;
    const { idToken, localId } = await signUp(email);
    await createUser(t.db, { uid: localId });
    await new Promise((r) => setTimeout(r, 1100)); // token iat has second precision
    await getAuth().revokeRefreshTokens(localId);
    const res = await t.request('GET', '/probe/uncached', { auth: `Bearer ${idToken}` });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Token revoked - please login again');
    await new Promise((r) => setTimeout(r, 1100));
    const again = await signIn(email);
    expect((await t.request('GET', '/probe/uncached', { auth: `Bearer ${again.idToken}` })).status).toBe(200);
  });

  it('answers a token of a user deleted at the provider with 404 User not found', async () => {
    const { idToken, localId } = await signUp(`deleted-${now()}@example.test`);
    await createUser(t.db, { uid: localId });
    await getAuth().deleteUser(localId);
    const res = await t.request('GET', '/probe/uncached', { auth: `Bearer ${idToken}` });
    expect(res.status).toBe(404);
  });

  it('refuses garbage with 401 Unauthorized', async () => {
    const res = await t.request('GET', '/probe/bearer', { auth: 'Bearer not-a-token' });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Unauthorized');
  });

  it('performs account operations at the provider', async () => {
    const provider = t.app.get(IdentityProvider);
    const email = `ops-${now()}@example.test`;
    const { localId } = await signUp(email);
    expect(await provider.generatePasswordResetLink(email)).toMatch(/^http/);
    expect(await provider.generatePasswordResetLink(`nobody-${now()}@example.test`)).toBeNull();
    await provider.updateEmail(localId, `new-${email}`);
    expect((await getAuth().getUser(localId)).email).toBe(`new-${email}`);
    await provider.updatePassword(localId, 'another-secret');
    await provider.deleteUser(localId);
    await expect(getAuth().getUser(localId)).rejects.toMatchObject({ code: 'auth/user-not-found' });
    await expect(provider.deleteUser(localId)).resolves.toBeUndefined();
  });
});
