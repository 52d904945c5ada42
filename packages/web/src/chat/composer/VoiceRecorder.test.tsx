// @vitest-environment jsdom
import { createRef } from 'react';
import type { ChatClient, VoiceRecording } from '@caseroom/sdk';
import {
  connectFakeClient,
  FakeChatServer,
  fakeMediaEnvironment,
  type FakeMedia,
} from '@caseroom/sdk/testing';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelHandle } from '../sdkTypes';
import { Composer } from './Composer';
import type { ComposerVoiceOptions } from './VoiceRecorder';

let server: FakeChatServer;
let client: ChatClient;
let channel: ChannelHandle;

beforeEach(async () => {
  server = new FakeChatServer();
  server.createChannel('messaging', 'general', { members: ['amy'] }, 'amy');
  client = await connectFakeClient(server, { id: 'amy', name: 'Amy' });
  channel = client.channel('messaging', 'general');
  await channel.watch();
});

afterEach(async () => {
  cleanup();
  await client.disconnectUser();
});

function renderComposer(fake: FakeMedia, options: Partial<ComposerVoiceOptions> = {}) {
  const recorded: { recording: VoiceRecording; send: boolean }[] = [];
  const inputRef = createRef<HTMLTextAreaElement>();
  render(
    <Composer
      composer={channel.composer}
      mode="main"
      inputRef={inputRef}
      voice={{
        canUpload: true,
        media: fake.media,
        onRecorded: (recording, { send }) => void recorded.push({ recording, send }),
        ...options,
      }}
    />,
  );
  return recorded;
}

const recordButton = () => screen.queryByRole('button', { name: 'Record voice message' });

describe('VoiceRecorder in the composer', () => {
  it('records, pauses, resumes and hands the recording over to send at once', async () => {
    const fake = fakeMediaEnvironment();
    const recorded = renderComposer(fake);
    fireEvent.click(recordButton()!);
    const group = await screen.findByRole('group', { name: 'Voice recorder' });
    await waitFor(() => expect(group.dataset.state).toBe('recording'));
    // The recorder takes the input's place.
    expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull();
    expect(within(group).getByTestId('voice-bars').children).toHaveLength(40);
    expect(within(group).getByRole('timer').textContent).toBe('00:00');
    const send = within(group).getByRole('button', { name: 'Send voice message' });
    await waitFor(() => expect(document.activeElement).toBe(send));

    fireEvent.click(within(group).getByRole('button', { name: 'Pause recording' }));
    expect(group.dataset.state).toBe('paused');
    expect(within(group).getByRole('status').textContent).toBe('Paused');
    fireEvent.click(within(group).getByRole('button', { name: 'Resume recording' }));
    expect(group.dataset.state).toBe('recording');

    fireEvent.click(send);
    await waitFor(() => expect(recorded).toHaveLength(1));
    expect(recorded[0]!.send).toBe(true);
    expect(recorded[0]!.recording).toMatchObject({ mime_type: 'audio/webm' });
    expect(recorded[0]!.recording.waveform_data).toHaveLength(100);
    expect(screen.queryByRole('group', { name: 'Voice recorder' })).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeTruthy();
    expect(fake.streams[0]!.stopped).toBe(true);
  });

  it('stops without sending when send-immediately is off; Escape deletes', async () => {
    const fake = fakeMediaEnvironment();
    const recorded = renderComposer(fake, { sendImmediately: false });
    fireEvent.click(recordButton()!);
    let group = await screen.findByRole('group', { name: 'Voice recorder' });
    await waitFor(() => expect(group.dataset.state).toBe('recording'));
    fireEvent.keyDown(group, { key: 'Escape' });
    expect(screen.queryByRole('group', { name: 'Voice recorder' })).toBeNull();
    expect(fake.streams[0]!.stopped).toBe(true);

    fireEvent.click(recordButton()!);
    group = await screen.findByRole('group', { name: 'Voice recorder' });
    await waitFor(() => expect(group.dataset.state).toBe('recording'));
    fireEvent.click(within(group).getByRole('button', { name: 'Stop recording' }));
    await waitFor(() => expect(recorded).toHaveLength(1));
    expect(recorded[0]!.send).toBe(false);
  });

  it('shows the permission notice with a retry and a close', async () => {
    const fake = fakeMediaEnvironment();
    renderComposer(fake);
    fake.deny();
    fireEvent.click(recordButton()!);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Please grant permission to use microhpone');
    const retry = screen.getByRole('button', { name: 'Try again' });
    expect(document.activeElement).toBe(retry);
    await act(async () => {
      fireEvent.click(retry);
      await Promise.resolve();
    });
    await waitFor(() =>
      expect(screen.getByRole('group', { name: 'Voice recorder' }).dataset.state).toBe('recording'),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Delete recording' }));
    fake.deny('NotReadableError');
    fireEvent.click(recordButton()!);
    expect((await screen.findByRole('alert')).textContent).toBe('Error starting recording');
    fireEvent.click(screen.getByRole('button', { name: 'Close recorder' }));
    expect(screen.queryByRole('group', { name: 'Voice recorder' })).toBeNull();
  });

  it('drops a recording when the composer moves to another chat', async () => {
    server.createChannel('messaging', 'other', { members: ['amy'] }, 'amy');
    const other = client.channel('messaging', 'other');
    await other.watch();
    const fake = fakeMediaEnvironment();
    const inputRef = createRef<HTMLTextAreaElement>();
    const voice = { canUpload: true, media: fake.media, onRecorded: () => undefined };
    const { rerender } = render(
      <Composer composer={channel.composer} mode="main" inputRef={inputRef} voice={voice} />,
    );
    fireEvent.click(recordButton()!);
    const group = await screen.findByRole('group', { name: 'Voice recorder' });
    await waitFor(() => expect(group.dataset.state).toBe('recording'));
    rerender(<Composer composer={other.composer} mode="main" inputRef={inputRef} voice={voice} />);
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Voice recorder' })).toBeNull());
    expect(fake.streams[0]!.stopped).toBe(true);
    expect(recordButton()).not.toBeNull();
  });

  it('has no record button without upload-file or without MediaRecorder', () => {
    renderComposer(fakeMediaEnvironment(), { canUpload: false });
    expect(recordButton()).toBeNull();
    cleanup();
    renderComposer(fakeMediaEnvironment({ mediaRecorder: false }));
    expect(recordButton()).toBeNull();
    cleanup();
    renderComposer(fakeMediaEnvironment());
    expect(recordButton()).not.toBeNull();
  });
});
