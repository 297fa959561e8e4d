import { useRef } from 'react';
import { useT } from '../../i18n/index.ts';
import type { EditorSession } from '../session.ts';
import { Icon } from '../Icon.tsx';
import { importFiles } from './import-images.ts';

/** Upload: a file picker that takes several images at once (on a phone it offers the camera and the photos too). */
export function ImportButton({ session, label }: { session: EditorSession; label: boolean }) {
  const t = useT();
  const input = useRef<HTMLInputElement>(null);
  // Alt-click on Upload keeps the pictures' own size (the picker's change event cannot say).
  const natural = useRef(false);
  const mac = /Mac|iPhone|iPad/.test(navigator.platform);
  return (
    <>
      <button
        type="button"
        className="tool-button"
        title={t('editor.import.uploadTitle', { paste: mac ? '⌘V' : 'Ctrl+V' })}
        aria-label={t('editor.import.upload')}
        data-testid="upload-images"
        onClick={(e) => {
          natural.current = e.altKey;
          input.current?.click();
        }}
      >
        <Icon name="upload" size={18} />
        {label && <span className="tool-button__label">{t('editor.import.upload')}</span>}
      </button>
      <input
        ref={input}
        type="file"
        multiple
        accept="image/*,.psd,.psb"
        hidden
        data-testid="upload-input"
        onChange={(e) => {
          const files = [...(e.currentTarget.files ?? [])];
          // Cleared so that picking the same file again fires another change.
          e.currentTarget.value = '';
          if (files.length > 0) void importFiles(session, files, { natural: natural.current });
        }}
      />
    </>
  );
}
