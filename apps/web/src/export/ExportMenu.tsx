import { useRef, useState } from 'react';
import { useSession } from '../session/context.ts';
import { useT } from '../i18n/index.ts';
import { Dialog } from '../components/Dialog.tsx';
import './export.css';
import { exportText, reasonText } from './i18n.ts';
import type { EditorSession } from '../editor/session.ts';
import {
  exportPng,
  exportPsd,
  importPsd,
  isPsdFile,
  serverPlan,
  type ExportProgress,
  type ImportReport,
} from './run.ts';

type Format = 'png' | 'psd' | 'psdPages';

/**
 * The Export button and its dialog: PNG or layered PSD of the open page (or every page as a zip of PSDs), PSD/PSB
 * import, a progress bar, and the list of what did not load or could not be imported.
 */
export function ExportMenu({ session }: { session: EditorSession }) {
  const t = useT();
  const { user } = useSession();
  const [open, setOpen] = useState(false);
  // The plan the server reports when the dialog opens: the watermark note follows an upgrade made elsewhere.
  const [plan, setPlan] = useState(user?.plan);
  const [format, setFormat] = useState<Format>('png');
  const [compression, setCompression] = useState(0);
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const busy = progress !== null;
  const comic = session.type === 'COMIC';

  const openDialog = () => {
    setOpen(true);
    void serverPlan(user?.plan).then(setPlan);
  };

  const run = async (task: () => Promise<void>) => {
    setError(null);
    setReport(null);
    setProgress({ stage: exportText('stage.starting'), done: 0, total: 1 });
    try {
      await task();
    } catch (e) {
      console.error('Export or import failed', e);
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setProgress(null);
    }
  };

  const startExport = () =>
    run(async () => {
      const plan = await serverPlan(user?.plan);
      setPlan(plan);
      if (format === 'png') await exportPng(session, plan, setProgress);
      else
        await exportPsd(
          session,
          plan,
          { scope: format === 'psdPages' ? 'allPages' : 'page', compression },
          setProgress,
        );
    });

  const startImport = (file: File) =>
    run(async () => {
      if (!isPsdFile(file)) throw new Error(exportText('error.notPsdFile', { file: file.name }));
      setReport(await importPsd(session, file, setProgress));
    });

  return (
    <>
      <button type="button" className="button" data-testid="export-open" onClick={openDialog}>
        {t('export.dialog.open')}
      </button>
      {open && (
        <Dialog title={t('export.dialog.title')} labelledBy="export-title" onCancel={() => !busy && setOpen(false)}>
          <fieldset disabled={busy} className="export-dialog">
            <legend>{t('export.dialog.open')}</legend>
            <label>
              <input
                type="radio"
                name="export-format"
                data-testid="export-format-png"
                checked={format === 'png'}
                onChange={() => setFormat('png')}
              />
              {t(comic ? 'export.dialog.pngPage' : 'export.dialog.pngCanvas')}
            </label>
            <label>
              <input
                type="radio"
                name="export-format"
                data-testid="export-format-psd"
                checked={format === 'psd'}
                onChange={() => setFormat('psd')}
              />
              {t(comic ? 'export.dialog.psdPage' : 'export.dialog.psd')}
            </label>
            {comic && session.editor.doc.pages.length > 1 && (
              <label>
                <input
                  type="radio"
                  name="export-format"
                  data-testid="export-format-psdPages"
                  checked={format === 'psdPages'}
                  onChange={() => setFormat('psdPages')}
                />
                {t('export.dialog.psdPages')}
              </label>
            )}
            {format !== 'png' && (
              <label>
                {t('export.dialog.compression')}{' '}
                <select
                  value={compression}
                  data-testid="export-compression"
                  onChange={(e) => setCompression(Number(e.target.value))}
                >
                  {Array.from({ length: 10 }, (_, level) => (
                    <option key={level} value={level}>
                      {level === 0 ? t('export.dialog.noCompression') : t('export.dialog.zipLevel', { level })}
                    </option>
                  ))}
                </select>
              </label>
            )}
            {plan !== 'subscriber' && <p className="export-dialog__note">{t('export.dialog.watermark')}</p>}
            <div className="button-row">
              <button
                type="button"
                className="button button--primary"
                data-testid="export-start"
                onClick={() => void startExport()}
              >
                {t('export.dialog.start')}
              </button>
              <button
                type="button"
                className="button"
                data-testid="import-psd"
                onClick={() => fileInput.current?.click()}
              >
                {t('export.dialog.import')}
              </button>
              <button type="button" className="button" data-testid="export-close" onClick={() => setOpen(false)}>
                {t('export.dialog.close')}
              </button>
            </div>
            <input
              ref={fileInput}
              type="file"
              accept=".psd,.psb,image/vnd.adobe.photoshop"
              hidden
              data-testid="import-psd-input"
              onChange={(e) => {
                const file = e.target.files?.[0];
                e.target.value = '';
                if (file) void startImport(file);
              }}
            />
          </fieldset>
          {progress && (
            <div className="export-dialog__progress" role="status" data-testid="export-progress">
              <progress value={progress.done} max={Math.max(1, progress.total)} />
              <span>{progress.stage}</span>
            </div>
          )}
          {error && (
            <p className="export-dialog__error" role="alert" data-testid="export-error">
              {error}
            </p>
          )}
          {report && (
            <div className="export-report" data-testid="import-report">
              <p>{t('export.dialog.imported', { count: report.added })}</p>
              {report.skipped.length > 0 && (
                <>
                  <p>{t('export.dialog.notImported')}</p>
                  <ul>
                    {report.skipped.map((n, i) => (
                      <li key={i}>{t('export.dialog.note', { name: n.name, reason: reasonText(n) })}</li>
                    ))}
                  </ul>
                </>
              )}
              {report.changed.length > 0 && (
                <>
                  <p>{t('export.dialog.changed')}</p>
                  <ul>
                    {report.changed.map((n, i) => (
                      <li key={i}>{t('export.dialog.note', { name: n.name, reason: reasonText(n) })}</li>
                    ))}
                  </ul>
                </>
              )}
            </div>
          )}
        </Dialog>
      )}
    </>
  );
}
