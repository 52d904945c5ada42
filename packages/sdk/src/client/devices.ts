import type { ApiClient } from '../transport/api-client.js';

/** A push device as the chat server keeps it (chat-spec §3 Other: device). */
export interface PushDevice {
  id: string;
  push_provider: string;
  push_provider_name?: string;
  user_id: string;
  created_at?: string;
}

/**
 * The connected user's push devices (chat-spec §7 `POST/GET/DELETE /devices`). The device id is the push
 * token; the product registers it with provider `firebase` (product-spec §7 addDevice).
 */
export class Devices {
  constructor(
    private readonly api: ApiClient,
    private readonly userId: () => string | undefined,
  ) {}

  async add(id: string, pushProvider: string, pushProviderName?: string): Promise<void> {
    await this.api.post('/devices', {
      id,
      push_provider: pushProvider,
      ...(pushProviderName ? { push_provider_name: pushProviderName } : {}),
      user_id: this.requireUser(),
    });
  }

  async list(): Promise<PushDevice[]> {
    const answer = await this.api.get<{ devices: PushDevice[] }>('/devices', {
      query: { user_id: this.requireUser() },
    });
    return answer.devices;
  }

  async remove(id: string): Promise<void> {
    await this.api.delete('/devices', { query: { id, user_id: this.requireUser() } });
  }

  private requireUser(): string {
    const id = this.userId();
    if (!id) throw new Error('Make sure to await connectUser() first.');
    return id;
  }
}
