import { pinnableFaces, type LayerNode } from '@koma/editor';
import type { TextData } from '@koma/domain';
import { useEffect, useRef, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import type { EditorSession } from '../session.ts';
import { useUi } from '../hooks.ts';
import { useT } from '../../i18n/index.ts';

/** "Pin to face": the tail follows a detected face of a picture; faces are outlined on the canvas while it is open. */
export function PinToFace({
  session,
  node,
  onChange,
}: {
  session: EditorSession;
  node: LayerNode<'TEXT'>;
  onChange: (patch: Partial<TextData>) => unknown;
}) {
  const t = useT();
  const open = useUi(session, (s) => s.faceMenuFor === node.id);
  const ref = useRef<HTMLDivElement>(null);
  const faces = pinnableFaces(session.editor.doc, node).flatMap(({ image, faces: boxes }) =>
    boxes.map((_, index) => ({
      layerId: image.id,
      index,
      label: `${image.name} · ${t('editor.layer.face', { n: index + 1 })}`,
    })),
  );
  const d = node.data;
  const value = d.pinToFace && d.tailTargetLayerId !== null ? `${d.tailTargetLayerId}#${d.tailTargetFaceIdx ?? 0}` : '';
  const current = faces.find((f) => `${f.layerId}#${f.index}` === value);
  const setOpen = (next: boolean) => session.ui.update({ faceMenuFor: next ? node.id : null });
  useEffect(() => {
    if (!open) return;
    const away = (e: PointerEvent) => {
      const target = e.target as Element | null;
      // A face outline on the canvas is part of the menu: it picks the face.
      if (ref.current?.contains(target) || target?.closest?.('.face-outlines')) return;
      setOpen(false);
    };
    // Escape closes the menu only: caught before the editor's shortcut, which would also clear the selection.
    const escape = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.stopImmediatePropagation();
      setOpen(false);
    };
    window.addEventListener('pointerdown', away, true);
    window.addEventListener('keydown', escape, true);
    return () => {
      window.removeEventListener('pointerdown', away, true);
      window.removeEventListener('keydown', escape, true);
    };
  });
  // Leaving the tab (another layer selected) closes the menu and its outlines.
  useEffect(
    () => () => session.ui.update((s) => (s.faceMenuFor === node.id ? { faceMenuFor: null } : {})),
    [session, node.id],
  );
  // A listbox is walked with the arrow keys (WAI-ARIA listbox pattern); opening it puts the focus on the chosen face.
  useEffect(() => {
    if (!open) return;
    const options = [...(ref.current?.querySelectorAll<HTMLButtonElement>('[role=option]') ?? [])];
    (options.find((o) => o.getAttribute('aria-selected') === 'true') ?? options[0])?.focus();
  }, [open]);
  const walk = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    const options = [...e.currentTarget.querySelectorAll<HTMLButtonElement>('[role=option]')];
    const at = options.indexOf(document.activeElement as HTMLButtonElement);
    const next =
      e.key === 'ArrowDown'
        ? Math.min(options.length - 1, at + 1)
        : e.key === 'ArrowUp'
          ? Math.max(0, at - 1)
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? options.length - 1
              : null;
    if (next === null) return;
    e.preventDefault();
    options[next]?.focus();
  };
  const pick = (layerId: string | null, index = 0) => {
    if (!layerId) onChange({ pinToFace: false, tailTargetLayerId: null, tailTargetFaceIdx: null });
    else onChange({ pinToFace: true, tailTargetLayerId: layerId, tailTargetFaceIdx: index });
    setOpen(false);
  };
  return (
    <div className="field pin-menu" ref={ref}>
      <span>{t('editor.layer.pinToFace')}</span>
      <button
        type="button"
        className="button pin-menu__button"
        aria-haspopup="listbox"
        aria-expanded={open}
        disabled={faces.length === 0 && value === ''}
        data-testid="pin-to-face"
        onClick={() => setOpen(!open)}
      >
        {current?.label ?? (faces.length === 0 ? t('editor.layer.noFaces') : t('editor.layer.notPinned'))} ▾
      </button>
      {open && (
        <div
          role="listbox"
          aria-label={t('editor.layer.pinMenu')}
          className="pin-menu__list"
          data-testid="pin-menu"
          onKeyDown={walk}
        >
          <button
            type="button"
            role="option"
            aria-selected={value === ''}
            data-testid="pin-face-none"
            onClick={() => pick(null)}
          >
            {t('editor.layer.notPinned')}
          </button>
          {faces.map((f) => (
            <button
              key={`${f.layerId}#${f.index}`}
              type="button"
              role="option"
              aria-selected={value === `${f.layerId}#${f.index}`}
              data-testid={`pin-face-${f.index}`}
              data-layer-id={f.layerId}
              onClick={() => pick(f.layerId, f.index)}
            >
              {f.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
