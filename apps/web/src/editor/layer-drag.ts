import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent, type RefObject } from 'react';

/** A press that moves less than this (px) is a click on the row, not a drag. */
const DRAG_THRESHOLD = 5;

export interface RowDrag {
  /** The row being dragged and the gap it would drop into (0 = above the first row, n = below the last). */
  id: string | null;
  gap: number | null;
  active: boolean;
  start(e: ReactPointerEvent, id: string): void;
}

/**
 * Reordering rows by dragging, with pointer events so a mouse, a pen and a finger all work (HTML drag and drop does
 * not on touch screens). A mouse drags a row from anywhere but its buttons; a finger or pen from the thumbnail only
 * (`data-drag-handle`), so that a finger elsewhere still scrolls the list. Escape cancels.
 */
export function useRowDrag(
  list: RefObject<HTMLOListElement | null>,
  onDrop: (id: string, gap: number) => void,
): RowDrag {
  const [state, setState] = useState<{ id: string; gap: number | null } | null>(null);
  const pending = useRef<{ id: string; pointerId: number; y: number; moved: boolean } | null>(null);
  const dropRef = useRef(onDrop);
  useEffect(() => {
    dropRef.current = onDrop;
  });

  useEffect(() => {
    const gapAt = (clientY: number): number => {
      const rows = [...(list.current?.querySelectorAll<HTMLElement>('.layer-row') ?? [])];
      const index = rows.findIndex((row) => {
        const r = row.getBoundingClientRect();
        return clientY < r.top + r.height / 2;
      });
      return index < 0 ? rows.length : index;
    };
    const move = (e: PointerEvent) => {
      const p = pending.current;
      if (!p || e.pointerId !== p.pointerId) return;
      if (!p.moved && Math.abs(e.clientY - p.y) < DRAG_THRESHOLD) return;
      p.moved = true;
      e.preventDefault();
      setState({ id: p.id, gap: gapAt(e.clientY) });
    };
    const up = (e: PointerEvent) => {
      const p = pending.current;
      if (!p || e.pointerId !== p.pointerId) return;
      pending.current = null;
      setState(null);
      if (!p.moved) return;
      // The click that follows a drag must not also select or open what is under the pointer.
      window.addEventListener('click', swallow, { capture: true, once: true });
      window.setTimeout(() => window.removeEventListener('click', swallow, { capture: true }), 0);
      dropRef.current(p.id, gapAt(e.clientY));
    };
    const cancel = () => {
      pending.current = null;
      setState(null);
    };
    const key = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && pending.current?.moved) {
        e.stopPropagation();
        cancel();
      }
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', cancel);
    window.addEventListener('keydown', key, true);
    return () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', cancel);
      window.removeEventListener('keydown', key, true);
    };
  }, [list]);

  return {
    id: state?.id ?? null,
    gap: state?.gap ?? null,
    active: state !== null,
    start(e, id) {
      if (e.button !== 0) return;
      const target = e.target as HTMLElement;
      const onHandle = !!target.closest('[data-drag-handle]');
      if (e.pointerType !== 'mouse' && !onHandle) return;
      // A mouse may start on the name (a click selects; a drag moves) but not on the other buttons or a field.
      if (!onHandle && target.closest('button:not(.layer-row__name), input')) return;
      pending.current = { id, pointerId: e.pointerId, y: e.clientY, moved: false };
    },
  };
}

function swallow(e: MouseEvent): void {
  e.stopPropagation();
  e.preventDefault();
}
