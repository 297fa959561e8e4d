import { z } from 'zod';
import { zLayer, type Layer } from '@koma/domain';
import { ImportError } from './import-error.ts';

/**
 * What Koma writes into its own PSDs so that importing one rebuilds the comic: which PSD layer (by its layer id,
 * which Photoshop keeps) shows which Koma layer and what part of it, and the saved form of the layers that come
 * back as themselves (panels, text) rather than as pixels. It travels in the document's XMP packet, in a
 * namespace of its own, which ag-psd and Photoshop both keep.
 */
export interface KomaPsdMeta {
  format: 'koma-psd';
  version: 1;
  /** The document rectangle the page shows, and document units to export pixels. */
  area: { x: number; y: number; width: number; height: number };
  scaleX: number;
  scaleY: number;
  /**
   * PSD layer id → the Koma layer it came from and the part it shows (a plan role, or 'group'), and for a turned
   * or mirrored image its turn and its box before the turn (document units): its pixels come back upright. A
   * restorable layer drawn as plain pixels (a pose, a sketch) has the hash of those pixels as written
   * (`pixelHash`), so that pixels painted over in another tool come back as pixels, not as the old data.
   */
  nodes: Record<string, { layerId: string | null; role: string; turn?: KomaTurn; hash?: string }>;
  /** The saved form (no children) of the layers that come back from their data, by id. */
  layers: Record<string, Layer>;
}

export interface KomaTurn {
  rotation: number;
  flipX: boolean;
  flipY: boolean;
  box: { x: number; y: number; width: number; height: number };
}

/** The XML namespace of the block; the version is in the JSON, so it never changes. */
export const KOMA_XMP_NAMESPACE = 'https://github.com/koma-studio/koma/ns/psd/';
/** Hostile files: the block is refused before parsing when longer than this (a page's panels and text fit in far less). */
export const KOMA_META_MAX_CHARS = 4_000_000;
const MAX_ENTRIES = 10_000;

const finite = z.number().finite();
const zMeta = z.object({
  format: z.literal('koma-psd'),
  version: z.literal(1),
  area: z.object({ x: finite, y: finite, width: finite.positive(), height: finite.positive() }),
  scaleX: finite.positive(),
  scaleY: finite.positive(),
  nodes: z
    .record(
      z.string().regex(/^[1-9]\d{0,9}$/, 'a PSD layer id'),
      z.object({
        layerId: z.string().min(1).max(200).nullable(),
        role: z.string().min(1).max(40),
        turn: z
          .object({
            rotation: finite,
            flipX: z.boolean(),
            flipY: z.boolean(),
            box: z.object({ x: finite, y: finite, width: finite.positive(), height: finite.positive() }),
          })
          .optional(),
        hash: z
          .string()
          .regex(/^[0-9a-f]{8}$/, 'a pixel hash')
          .optional(),
      }),
    )
    .refine((r) => Object.keys(r).length <= MAX_ENTRIES, `at most ${MAX_ENTRIES} layers`),
  layers: z
    .record(z.string().min(1).max(200), zLayer)
    .refine((r) => Object.keys(r).length <= MAX_ENTRIES, `at most ${MAX_ENTRIES} layers`)
    .refine((r) => Object.entries(r).every(([id, l]) => l.id === id), 'each layer stored under its own id')
    .refine((r) => Object.values(r).every((l) => l.children.length === 0), 'layers stored without children'),
});

/** The XMP packet holding the block. */
export function komaXmp(meta: KomaPsdMeta): string {
  return (
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>\n' +
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
    `<rdf:Description rdf:about="" xmlns:koma="${KOMA_XMP_NAMESPACE}">` +
    `<koma:page>${escapeXml(JSON.stringify(meta))}</koma:page>` +
    '</rdf:Description></rdf:RDF></x:xmpmeta>\n<?xpacket end="w"?>'
  );
}

/**
 * The block of a PSD's XMP packet: null when the file has none (another tool's PSD), the checked block when it
 * has one, and an ImportError naming what is wrong when it is damaged — never a half-read comic.
 */
export function readKomaXmp(xmp: string | undefined): KomaPsdMeta | null {
  if (!xmp || !xmp.includes(KOMA_XMP_NAMESPACE)) return null;
  const match = /<(\w+):page>([\s\S]*?)<\/\1:page>/.exec(xmp);
  if (!match) return null;
  const text = match[2]!;
  if (text.length > KOMA_META_MAX_CHARS) {
    throw damaged(`it is longer than ${KOMA_META_MAX_CHARS} characters`);
  }
  let json: unknown;
  try {
    json = JSON.parse(unescapeXml(text));
  } catch {
    throw damaged('it is not valid JSON');
  }
  const parsed = zMeta.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.') || 'the block';
    throw damaged(`${field}: ${issue.message}`);
  }
  return parsed.data;
}

function damaged(detail: string): ImportError {
  return new ImportError(`The Koma data in this PSD is damaged (${detail}); nothing was imported.`, 'komaData', {
    detail,
  });
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, code: string) => {
    const lower = code.toLowerCase();
    if (lower === 'amp') return '&';
    if (lower === 'lt') return '<';
    if (lower === 'gt') return '>';
    if (lower === 'quot') return '"';
    if (lower === 'apos') return "'";
    const n = lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : parseInt(lower.slice(1), 10);
    return n <= 0x10ffff ? String.fromCodePoint(n) : '';
  });
}
