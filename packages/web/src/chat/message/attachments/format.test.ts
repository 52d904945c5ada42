import { describe, expect, it } from 'vitest';
import type { Attachment } from '@caseroom/protocol';
import {
  attachmentItems,
  attachmentKind,
  fileFamily,
  fileNameOf,
  formatDuration,
  formatFileSize,
  formatPlaybackRate,
  galleryTiles,
  imageBox,
  nextPlaybackRate,
  resizeRequest,
  seekByKey,
  waveformBars,
} from './format';

const image = (n: number): Attachment => ({
  type: 'image',
  image_url: `/chat/files/upl_00000000000${n}/p${n}.jpg`,
});

describe('attachment dispatch (chat-spec §2)', () => {
  it('knows every type, puts link previews apart and skips what cannot render', () => {
    expect(attachmentKind({ type: 'image', image_url: 'x' })).toBe('image');
    expect(attachmentKind({ type: 'image' })).toBe('none');
    expect(attachmentKind({ type: 'image', image_url: 'x', og_scrape_url: 'https://a.test' })).toBe('og');
    expect(
      attachmentKind({
        type: 'giphy',
        giphy: { fixed_height_downsampled: { url: 'g', height: 200, width: 300 } },
      }),
    ).toBe('giphy');
    expect(attachmentKind({ type: 'video', asset_url: 'v' })).toBe('video');
    expect(attachmentKind({ type: 'audio', asset_url: 'a' })).toBe('audio');
    expect(attachmentKind({ type: 'voiceRecording', asset_url: 'r' })).toBe('voiceRecording');
    expect(attachmentKind({ type: 'file', asset_url: 'f' })).toBe('file');
    expect(attachmentKind({ type: 'custom', actions: [{ name: 'ok', text: 'OK' }] })).toBe('actions');
    expect(attachmentKind({ type: 'custom' })).toBe('none');
    expect(attachmentKind({ title_link: 'https://a.test', title: 'A' })).toBe('og');
  });

  it('forms a gallery from 2 images, where the first image was, with actions last', () => {
    const one = attachmentItems([{ type: 'file', asset_url: 'f' }, image(1)]);
    expect(one.items.map((i) => i.kind)).toEqual(['file', 'image']);
    const actions: Attachment = { type: 'custom', actions: [{ name: 'a' }] };
    const many = attachmentItems([
      actions,
      { type: 'file', asset_url: 'f' },
      image(1),
      { type: 'video', asset_url: 'v' },
      image(2),
    ]);
    expect(many.items.map((i) => i.kind)).toEqual(['file', 'gallery', 'video', 'actions']);
    const gallery = many.items[1];
    expect(gallery?.kind === 'gallery' ? gallery.images.length : 0).toBe(2);
    expect(many.images).toHaveLength(2);
  });

  it('takes a gallery attachment’s own images', () => {
    const { items, images } = attachmentItems([
      { type: 'gallery', images: [image(1), image(2), image(3)] } as Attachment,
    ]);
    expect(items.map((i) => i.kind)).toEqual(['gallery']);
    expect(images).toHaveLength(3);
  });
});

describe('gallery tiles (chat-spec §9: 4 tiles, 3 and "+N more")', () => {
  it('shows up to 4 images, else 3 and a tile for the rest', () => {
    expect(galleryTiles(2)).toEqual({ shown: 2, more: 0 });
    expect(galleryTiles(4)).toEqual({ shown: 4, more: 0 });
    expect(galleryTiles(5)).toEqual({ shown: 3, more: 2 });
    expect(galleryTiles(12)).toEqual({ shown: 3, more: 9 });
  });
});

describe('image sizes (chat-spec §9)', () => {
  it('asks for twice the CSS size, never more than the original; unknown counts as 1,000,000', () => {
    expect(resizeRequest(300, 200, { original_width: 4000, original_height: 3000 })).toEqual({
      w: 600,
      h: 400,
    });
    expect(resizeRequest(300, 200, { original_width: 400, original_height: 300 })).toEqual({
      w: 400,
      h: 300,
    });
    expect(resizeRequest(148, 148, {})).toEqual({ w: 296, h: 296 });
  });

  it('keeps the original aspect ratio inside the box', () => {
    expect(imageBox({ original_width: 4000, original_height: 3000 }, 300, 300)).toEqual({
      width: 300,
      height: 225,
      known: true,
    });
    expect(imageBox({ original_width: 1000, original_height: 2000 }, 300, 300)).toEqual({
      width: 150,
      height: 300,
      known: true,
    });
    expect(imageBox({ original_width: 100, original_height: 50 }, 300, 300)).toEqual({
      width: 100,
      height: 50,
      known: true,
    });
    expect(imageBox({}, 300, 300)).toEqual({ width: 300, height: 225, known: false });
  });
});

describe('voice and media (chat-spec §9)', () => {
  it('formats durations as mm:ss, and hh:mm:ss from an hour', () => {
    expect(formatDuration(0)).toBe('00:00');
    expect(formatDuration(undefined)).toBe('00:00');
    expect(formatDuration(NaN)).toBe('00:00');
    expect(formatDuration(7.9)).toBe('00:07');
    expect(formatDuration(65)).toBe('01:05');
    expect(formatDuration(3599)).toBe('59:59');
    expect(formatDuration(3600)).toBe('01:00:00');
    expect(formatDuration(3 * 3600 + 62)).toBe('03:01:02');
  });

  it('cycles the playback rate 1, 1.5, 2, 1 and shows one decimal', () => {
    const seen = [1];
    for (let i = 0; i < 4; i++) seen.push(nextPlaybackRate(seen[seen.length - 1]!));
    expect(seen).toEqual([1, 1.5, 2, 1, 1.5]);
    expect(seen.map(formatPlaybackRate)).toEqual(['1.0x', '1.5x', '2.0x', '1.0x', '1.5x']);
    expect(nextPlaybackRate(0.75)).toBe(1);
  });

  it('draws 40 bars from up to 100 samples, stretching fewer', () => {
    const samples = Array.from({ length: 100 }, (_, i) => i / 99);
    const bars = waveformBars(samples);
    expect(bars).toHaveLength(40);
    expect(bars[39]).toBe(1);
    expect(bars[0]).toBeLessThan(bars[20]!);
    expect(waveformBars([0.5, 1])).toEqual([...Array(20).fill(0.5), ...Array(20).fill(1)]);
    expect(waveformBars(undefined)).toHaveLength(40);
  });

  it('seeks with the keyboard within the recording', () => {
    expect(seekByKey('ArrowRight', 10, 60)).toBe(13);
    expect(seekByKey('ArrowLeft', 1, 60)).toBe(0);
    expect(seekByKey('End', 1, 60)).toBe(60);
    expect(seekByKey('Home', 30, 60)).toBe(0);
    expect(seekByKey('ArrowRight', 59.5, 60)).toBe(60);
    expect(seekByKey('a', 1, 60)).toBeUndefined();
  });
});

describe('files', () => {
  it('sizes for people', () => {
    expect(formatFileSize(980)).toBe('980 B');
    expect(formatFileSize(12_700)).toBe('12.4 KB');
    expect(formatFileSize(3.1 * 1024 * 1024)).toBe('3.1 MB');
    expect(formatFileSize(250 * 1024 * 1024)).toBe('250 MB');
    expect(formatFileSize(undefined)).toBe('');
  });

  it('picks an icon family and a name', () => {
    expect(fileFamily('application/pdf', 'x')).toBe('pdf');
    expect(fileFamily(undefined, 'budget.XLSX')).toBe('sheet');
    expect(
      fileFamily('application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'a.docx'),
    ).toBe('document');
    expect(fileFamily('application/zip', 'a.zip')).toBe('archive');
    expect(fileFamily('application/octet-stream', 'a.bin')).toBe('other');
    expect(fileNameOf({ title: 'Letter.pdf', asset_url: '/chat/files/x/y.pdf' })).toBe('Letter.pdf');
    expect(fileNameOf({ asset_url: '/chat/files/upl_0123456789/Brev%20til%20NAV.pdf?x=1' })).toBe(
      'Brev til NAV.pdf',
    );
    expect(fileNameOf({ asset_url: 'data:application/pdf;base64,AAAA' })).toBe('file');
  });
});
