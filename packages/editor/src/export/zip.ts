import { zipSync } from 'fflate';

/** One file of a zip. */
export interface ZipEntry {
  name: string;
  bytes: Uint8Array;
}

/**
 * Packs files into a zip. PSD channels are already RLE- or zip-compressed, so entries are stored (level 0) unless a
 * level is given: deflating them again costs time and gains little.
 */
export function zipFiles(entries: readonly ZipEntry[], level: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 = 0): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (const e of entries) files[uniqueName(files, e.name)] = e.bytes;
  return zipSync(files, { level });
}

function uniqueName(files: Record<string, Uint8Array>, name: string): string {
  if (!(name in files)) return name;
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : '';
  for (let i = 2; ; i++) if (!(`${stem} (${i})${ext}` in files)) return `${stem} (${i})${ext}`;
}

/** A file name without characters that file systems refuse. */
export function safeFileName(name: string): string {
  const printable = [...name].map((c) => (c.charCodeAt(0) < 32 ? '_' : c)).join('');
  return printable.replace(/[\\/:*?"<>|]+/g, '_').trim() || 'page';
}
