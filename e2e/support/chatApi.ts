import { DEMO_PASSWORD } from './caseroom.js';

/** A chat API caller acting as a demo user: signs in, gets a chat token from `chat-getToken`, sends messages. */
export async function chatApiAs(baseUrl: string, email: string) {
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
  return {
    uid: me.uid,
    /** Sends `text` to channel `cid` (`type:id`) and answers the message id. */
    async send(cid: string, text: string): Promise<string> {
      const [type, id] = cid.split(':') as [string, string];
      const answer = await fetch(`${baseUrl}/chat/channels/${type}/${id}/message?${query}`, {
        method: 'POST',
        headers: { authorization: token, 'auth-type': 'jwt', 'content-type': 'application/json' },
        body: JSON.stringify({ message: { text } }),
      });
      if (!answer.ok) throw new Error(`send to ${cid}: ${answer.status} ${await answer.text()}`);
      return ((await answer.json()) as { message: { id: string } }).message.id;
    },
  };
}
