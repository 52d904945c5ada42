// @vitest-environment jsdom
import { CHAT_LIMITS } from '@caseroom/protocol';
import { NOTICE_TEXTS } from '@caseroom/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../i18n/t';
import { noticeText } from './noticeText';

describe('noticeText: the SDK attachment notices, with their file names and limits', () => {
  afterEach(async () => {
    await setLanguage('en');
  });

  it('keeps the English texts and translates them with their values', async () => {
    const type = 'Error uploading "a (1).pdf", type .pdf not supported';
    const size = 'Error uploading "scan.png", maximum file size 100MB exceeded';
    expect(noticeText(type)).toBe(type);
    expect(noticeText(size)).toBe(size);
    expect(noticeText('Error uploading file "x.bin"')).toBe('Error uploading file "x.bin"');
    await setLanguage('nb');
    expect(noticeText(type)).toBe('Feil ved opplasting av «a (1).pdf», filtypen .pdf støttes ikke');
    expect(noticeText(size)).toBe(
      'Feil ved opplasting av «scan.png», maksimal filstørrelse 100MB er overskredet',
    );
    expect(noticeText('Error uploading file "x.bin"')).toBe('Feil ved opplasting av filen «x.bin»');
    expect(noticeText("You can't uplod more than 30 attachments")).toBe(
      'Du kan ikke laste opp mer enn 30 vedlegg',
    );
    expect(noticeText('Error deleting attachment')).toBe('Feil ved sletting av vedlegget');
    expect(noticeText('Wait until all attachments have uploaded')).toBe(
      'Vent til alle vedlegg er lastet opp',
    );
  });

  it('translates the mark-unread window notice with its number, in plural form', async () => {
    const sdkText = NOTICE_TEXTS.markUnreadWindow.replace('{{count}}', String(CHAT_LIMITS.markUnreadWindow));
    expect(noticeText(sdkText)).toBe('Error, only the first 100 messages can be marked as unread');
    await setLanguage('nb');
    expect(noticeText(sdkText)).toBe('Feil: bare de 100 nyeste meldingene kan merkes som uleste');
  });
});
