import { DEMO_PASSWORD } from './caseroom.js';

/**
 * A chat API caller acting as a demo user (signs in, gets a chat token from `chat-getToken`): sends messages as
 * another person while a test drives the browser of someone else.
 */
export async function chatAs(baseUrl: string, email: string) {
  const signedIn = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  const session = (await signedIn.json()) as { token?: string };
  const bearer = session.token ?? signedIn.headers.get('set-auth-token') ?? '';
  const headers = { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', origin: baseUrl };
  const me = (await (await fetch(`${baseUrl}/api/me`, { headers })).json()) as { uid: string };
  const tokenAnswer = (await (
    await fetch(`${baseUrl}/api/functions/chat-getToken`, { method: 'POST', headers, body: '{"data":{}}' })
  ).json()) as { result: string | { token: string } };
  const token = typeof tokenAnswer.result === 'string' ? tokenAnswer.result : tokenAnswer.result.token;
  const config = (await (await fetch(`${baseUrl}/api/config`)).json()) as { chatApiKey: string };
  const query = new URLSearchParams({ api_key: config.chatApiKey, user_id: me.uid });
  const call = async (method: string, path: string, body?: unknown) => {
    const answer = await fetch(`${baseUrl}/chat${path}?${query}`, {
      method,
      headers: {
        authorization: token,
        'auth-type': 'jwt',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`);
    return (await answer.json()) as { message: { id: string } };
  };
  const sendMessage = async (cid: string, message: Record<string, unknown>): Promise<{ id: string }> => {
    const [type = '', id = ''] = cid.split(':');
    return (await call('POST', `/channels/${type}/${id}/message`, { message })).message;
  };
  return {
    uid: me.uid,
    /** Sends `text` to channel `cid` as this user. */
    send: (cid: string, text: string) => sendMessage(cid, { text }),
    /** Sends a whole message (attachments, mentions...) to channel `cid` as this user. */
    sendMessage,
    /** Deletes a message as this user. */
    remove: (id: string) => call('DELETE', `/messages/${id}`),
  };
}
