import { useCallback, useEffect, useState } from 'react';
import { api as defaultApi } from '../../api/endpoints.ts';
import type { KomaApi } from '../../api/endpoints.ts';
import type { WorkspaceSummary } from '../../api/types.ts';

export const DASHBOARD_PAGE_SIZE = 50;

export interface WorkspaceList {
  items: WorkspaceSummary[];
  total: number;
  loading: boolean;
  error: unknown;
  reload(): Promise<void>;
  loadMore(): Promise<void>;
  /** Local edits after a successful call, so the list does not flash a reload for a rename or delete. */
  patch(id: string, change: Partial<WorkspaceSummary>): void;
  drop(id: string): void;
}

/** The signed-in user's workspaces, newest first, fetched a page of 50 at a time. */
export function useWorkspaces(api: KomaApi = defaultApi): WorkspaceList {
  const [items, setItems] = useState<WorkspaceSummary[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(1);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>(null);

  const reload = useCallback(async () => {
    setLoading(true);
    try {
      const result = await api.workspaces.list(1, DASHBOARD_PAGE_SIZE);
      setItems(result.items);
      setTotal(result.total);
      setPage(1);
      setError(null);
    } catch (failure) {
      setError(failure);
    } finally {
      setLoading(false);
    }
  }, [api]);

  const loadMore = useCallback(async () => {
    setLoading(true);
    try {
      const result = await api.workspaces.list(page + 1, DASHBOARD_PAGE_SIZE);
      // Items can shift between pages when something was created meanwhile: keep each id once.
      setItems((prev) => {
        const seen = new Set(prev.map((w) => w.id));
        return [...prev, ...result.items.filter((w) => !seen.has(w.id))];
      });
      setTotal(result.total);
      setPage(result.page);
      setError(null);
    } catch (failure) {
      setError(failure);
    } finally {
      setLoading(false);
    }
  }, [api, page]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const patch = useCallback((id: string, change: Partial<WorkspaceSummary>) => {
    setItems((prev) => prev.map((w) => (w.id === id ? { ...w, ...change } : w)));
  }, []);
  const drop = useCallback((id: string) => {
    setItems((prev) => prev.filter((w) => w.id !== id));
    setTotal((prev) => Math.max(0, prev - 1));
  }, []);

  return { items, total, loading, error, reload, loadMore, patch, drop };
}
