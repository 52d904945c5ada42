/** A file size for people, in decimal units as the upload limit is shown ("2.4 MB", "830 KB", "12 B"). */
export function formatFileSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 'B';
  for (const next of units) {
    if (value < 1000) break;
    value /= 1000;
    unit = next;
  }
  return `${value >= 100 ? Math.round(value) : Number(value.toFixed(1))} ${unit}`;
}
