import { describe, expect, it } from 'vitest';
import { ChatError } from '../errors.js';
import { checkSize, checkTypeAllowed } from './checks.js';
import { safeFileName } from './receive.js';
import { mismatchOf } from './sniff.js';

const png = { mime: 'image/png', ext: 'png', source: 'binary' } as const;
const refusal = (f: () => void) => {
  try {
    f();
  } catch (err) {
    if (err instanceof ChatError) return { code: err.code, status: err.status, message: err.message };
    throw err;
  }
  return undefined;
};

describe('upload checks', () => {
  it('blocks by the name’s or the content’s extension, allows by the name, treats .jpeg as .jpg', () => {
    expect(refusal(() => checkTypeAllowed({ blocked_file_extensions: ['.png'] }, 'dat', png))).toMatchObject({
      code: 4,
      message: 'File extension .png is not allowed',
    });
    expect(
      refusal(() => checkTypeAllowed({ allowed_file_extensions: ['.jpg'] }, 'jpeg', png)),
    ).toBeUndefined();
    expect(refusal(() => checkTypeAllowed({ allowed_file_extensions: ['.pdf'] }, 'png', png))).toMatchObject({
      code: 4,
      message: expect.stringMatching(/file extension \.png/i) as string,
    });
  });

  it('matches MIME lists exactly or by `type/*`, always naming the file extension', () => {
    expect(refusal(() => checkTypeAllowed({ blocked_mime_types: ['image/*'] }, 'png', png))?.message).toBe(
      'MIME type image/png is not allowed (file extension .png)',
    );
    expect(refusal(() => checkTypeAllowed({ allowed_mime_types: ['image/*'] }, 'png', png))).toBeUndefined();
  });

  it('refuses over the size limit with code 22 in bytes; 0 means the default 100 MiB', () => {
    expect(refusal(() => checkSize({ size_limit: 10 }, 11))).toEqual({
      code: 22,
      status: 413,
      message: 'File is too large: the maximum file size is 10 bytes',
    });
    expect(refusal(() => checkSize({ size_limit: 0 }, 100 * 1024 * 1024))).toBeUndefined();
    expect(refusal(() => checkSize({}, 100 * 1024 * 1024 + 1))?.code).toBe(22);
  });

  it('finds names that disagree with the content', () => {
    expect(mismatchOf('jpg', png)).toBeUndefined();
    expect(mismatchOf('dat', png)).toBeUndefined();
    expect(mismatchOf('', png)).toBeUndefined();
    expect(mismatchOf('pdf', png)).toMatch(/file extension \.pdf/i);
    expect(mismatchOf('txt', png)).toMatch(/does not match/);
    expect(mismatchOf('docx', { mime: 'application/zip', ext: 'zip', source: 'binary' })).toBeUndefined();
    expect(mismatchOf('jpg', { mime: 'text/html', ext: 'html', source: 'text' })).toMatch(/\.jpg/);
    expect(mismatchOf('ts', { mime: 'text/plain', ext: 'txt', source: 'text' })).toBeUndefined();
  });

  it('makes file names safe to store and show', () => {
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('C:\\Users\\x\\report.pdf')).toBe('report.pdf');
    expect(safeFileName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(safeFileName('a\u0000b\nc.txt')).toBe('abc.txt');
    expect(safeFileName('.htaccess')).toBe('htaccess');
    expect(safeFileName('')).toBe('file');
    expect(safeFileName(undefined)).toBe('file');
    const long = safeFileName(`${'x'.repeat(500)}.docx`);
    expect(long).toHaveLength(200);
    expect(long.endsWith('.docx')).toBe(true);
    expect(safeFileName('Vedtak – søknad (1).pdf')).toBe('Vedtak – søknad (1).pdf');
  });
});
