import { useRef, useState } from 'react';
import { SIDEBAR_WIDTHS, zEditorLayout, type EditorLayout } from '@koma/domain';
import { useSession } from '../../session/context.ts';

export type Side = 'left' | 'right';

export interface Sidebars {
  layout: EditorLayout;
  setOpen(side: Side, open: boolean): void;
  /** `save: false` while an edge is being dragged; the width is stored once when the drag ends. */
  setWidth(side: Side, width: number, save?: boolean): void;
}

export function clampWidth(side: Side, width: number): number {
  const limits = SIDEBAR_WIDTHS[side];
  return Math.round(Math.min(limits.max, Math.max(limits.min, width)));
}

const DEFAULT_LAYOUT: EditorLayout = zEditorLayout.parse({});

/**
 * The sidebars' widths and open state, remembered in the account's preferences (so another device or a reload gets
 * them back). Until this tab changes something it follows the stored preferences, which arrive after sign-in.
 */
export function useSidebars(): Sidebars {
  const account = useSession();
  const stored = account.preferences.editorLayout;
  const [local, setLocal] = useState<EditorLayout | null>(null);
  const layout: EditorLayout = local ?? { ...DEFAULT_LAYOUT, ...stored };
  const current = useRef(layout);
  current.current = layout;

  const change = (patch: Partial<EditorLayout>, save: boolean) => {
    const next = { ...current.current, ...patch };
    current.current = next;
    setLocal(next);
    if (save) {
      account
        .updatePreferences({ editorLayout: next })
        .catch((error: unknown) => console.warn('The sidebar layout was not stored', error));
    }
  };

  return {
    layout,
    setOpen: (side, open) => change(side === 'left' ? { leftOpen: open } : { rightOpen: open }, true),
    setWidth: (side, width, save = true) => {
      const w = clampWidth(side, width);
      change(side === 'left' ? { leftWidth: w } : { rightWidth: w }, save);
    },
  };
}
