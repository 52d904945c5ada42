import type { FileFamily } from './format';

const LABELS: Record<FileFamily, string> = {
  pdf: 'PDF',
  image: 'IMG',
  video: 'VID',
  audio: 'AUD',
  archive: 'ZIP',
  document: 'DOC',
  sheet: 'XLS',
  slides: 'PPT',
  text: 'TXT',
  other: 'FILE',
};

/** A document-shaped icon coloured and labelled by the file's family (decorative: the name says it all). */
export function FileIcon({ family }: { family: FileFamily }) {
  return (
    <svg
      className={`file-icon file-icon-${family}`}
      viewBox="0 0 32 40"
      width="32"
      height="40"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M3 1h18l8 8v28a2 2 0 0 1-2 2H3a2 2 0 0 1-2-2V3a2 2 0 0 1 2-2z" className="file-icon-page" />
      <path d="M21 1v8h8" className="file-icon-fold" />
      <text x="15" y="31" textAnchor="middle" className="file-icon-label">
        {LABELS[family]}
      </text>
    </svg>
  );
}
