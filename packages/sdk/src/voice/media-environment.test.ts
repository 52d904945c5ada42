import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserMediaEnvironment } from './media-environment.js';
import { canRecordVoice } from './voice-format.js';

describe('browserMediaEnvironment', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('is empty where the browser APIs are missing (Node, insecure pages)', () => {
    vi.stubGlobal('navigator', {});
    const media = browserMediaEnvironment();
    expect(media.getUserMedia).toBeUndefined();
    expect(canRecordVoice()).toBe(false);
  });

  it("reads the page's own APIs when asked, with webkitAudioContext as the fallback", async () => {
    const getUserMedia = vi.fn(async () => ({ getTracks: () => [] }));
    const devices = { getUserMedia };
    class Recorder {
      static isTypeSupported = (type: string) => type === 'audio/webm';
    }
    class Context {}
    vi.stubGlobal('navigator', { mediaDevices: devices });
    vi.stubGlobal('MediaRecorder', Recorder);
    vi.stubGlobal('AudioContext', undefined);
    vi.stubGlobal('webkitAudioContext', Context);
    const media = browserMediaEnvironment();
    expect(media.MediaRecorder).toBe(Recorder);
    expect(media.AudioContext).toBe(Context);
    await media.getUserMedia!({ audio: true });
    expect(getUserMedia).toHaveBeenCalledWith({ audio: true });
    expect(canRecordVoice()).toBe(true);
  });
});
