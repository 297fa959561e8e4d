import type { WorkspaceData, WorkspaceType } from '@koma/domain';

// Thumbnails of a workspace: one image per page (or one for an infinite canvas), kept in a page uuid → image id map.

/** Thumbnail sizes of editor.md §9, by workspace type. */
export const THUMBNAIL_SIZE: Record<WorkspaceType, { width: number; height: number }> = {
  INFINITE: { width: 768, height: 512 },
  COMIC: { width: 512, height: 720 },
};

/** URL at which an image id is served. */
export function imageUrl(id: string): string {
  return `/api/images/${id}`;
}

// Key of an infinite canvas's single thumbnail in the page → image map.
const CANVAS_KEY = '';

/** The page a new thumbnail pictures: the page shown last, or the canvas. */
export function thumbnailKey(type: WorkspaceType, data: WorkspaceData): string {
  if (type === 'INFINITE' || data.pages.length === 0) return CANVAS_KEY;
  const page = data.pages[Math.min(data.lastPage, data.pages.length - 1)] ?? data.pages[0];
  return page ? page.uuid : CANVAS_KEY;
}

/** Keeps only thumbnails of pages that still exist; returns the kept map and the ids dropped. */
export function pruneThumbnails(type: WorkspaceType, data: WorkspaceData, map: Record<string, string>) {
  const live = new Set(type === 'INFINITE' || data.pages.length === 0 ? [CANVAS_KEY] : data.pages.map((p) => p.uuid));
  const kept: Record<string, string> = {};
  const dropped: string[] = [];
  for (const [key, id] of Object.entries(map)) {
    if (live.has(key)) kept[key] = id;
    else dropped.push(id);
  }
  return { kept, dropped };
}

/** One URL per page (editor.md §7); an infinite canvas counts as one page once it has a thumbnail. */
export function thumbnailUrls(type: WorkspaceType, data: WorkspaceData, map: Record<string, string>): string[] {
  if (type === 'INFINITE' || data.pages.length === 0) {
    const id = map[CANVAS_KEY];
    return id ? [imageUrl(id)] : [];
  }
  return data.pages.map((page) => {
    const id = map[page.uuid];
    return id ? imageUrl(id) : (page.thumbnailUrl ?? '');
  });
}
