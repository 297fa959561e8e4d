import { useRef } from 'react';
import { SIDEBAR_WIDTHS } from '@koma/domain';
import type { Side } from './sidebars.ts';

const KEY_STEP = 16;

/**
 * The draggable inner edge of a sidebar (a separator in ARIA terms): drag it with a mouse, pen or finger, or focus it
 * and use the arrow keys (Home and End for the narrowest and widest). The width is stored when the drag ends.
 */
export function SidebarEdge({
  side,
  width,
  label,
  onWidth,
}: {
  side: Side;
  width: number;
  label: string;
  onWidth: (width: number, save: boolean) => void;
}) {
  const drag = useRef<{ x: number; width: number; last: number } | null>(null);
  // Dragging the left sidebar's edge right widens it; the right sidebar's edge widens when dragged left.
  const sign = side === 'left' ? 1 : -1;
  const limits = SIDEBAR_WIDTHS[side];
  return (
    <div
      className={`sidebar-edge sidebar-edge--${side}`}
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={width}
      aria-valuemin={limits.min}
      aria-valuemax={limits.max}
      tabIndex={0}
      data-testid={`resize-${side}`}
      onPointerDown={(e) => {
        if (e.button !== 0) return;
        e.preventDefault();
        e.currentTarget.setPointerCapture(e.pointerId);
        drag.current = { x: e.clientX, width, last: width };
      }}
      onPointerMove={(e) => {
        const d = drag.current;
        if (!d) return;
        d.last = d.width + sign * (e.clientX - d.x);
        onWidth(d.last, false);
      }}
      onPointerUp={() => {
        const d = drag.current;
        drag.current = null;
        if (d) onWidth(d.last, true);
      }}
      onPointerCancel={() => {
        const d = drag.current;
        drag.current = null;
        if (d) onWidth(d.width, true);
      }}
      onKeyDown={(e) => {
        let next: number | null = null;
        if (e.key === 'ArrowLeft') next = width - sign * KEY_STEP;
        else if (e.key === 'ArrowRight') next = width + sign * KEY_STEP;
        else if (e.key === 'Home') next = limits.min;
        else if (e.key === 'End') next = limits.max;
        if (next === null) return;
        // The arrows are the editor's variation keys too; here they belong to the edge.
        e.preventDefault();
        e.stopPropagation();
        onWidth(next, true);
      }}
    />
  );
}
