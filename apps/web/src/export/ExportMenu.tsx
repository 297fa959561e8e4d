import { useRef, useState } from 'react';
import { useSession } from '../session/context.ts';
import { useT } from '../i18n/index.ts';
import {
  WEBTOON_SLICE_HEIGHT,
  comicExportSize,
  comicPrintGeometry,
  parsePageRange,
  type PageRangeError,
} from '@koma/editor';
import { Dialog } from '../components/Dialog.tsx';
import type { PageTone } from './tone-pages.ts';
import './export.css';
import { exportText, reasonText } from './i18n.ts';
import type { EditorSession } from '../editor/session.ts';
import {
  exportPages,
  exportPdf,
  exportPng,
  exportPsd,
  exportWebtoon,
  importPsd,
  isPsdFile,
  serverPlan,
  type ExportProgress,
  type ImportReport,
} from './run.ts';

type Format = 'png' | 'psd' | 'psdPages' | 'pngPages' | 'cbz' | 'pdf' | 'webtoon';
/** Formats that take every page of a comic. */
const CHAPTER_FORMATS = ['psdPages', 'pngPages', 'cbz', 'pdf', 'webtoon'] as const;
/** Screentone rulings the dialog accepts (manga tones are 50–85 lpi) and its defaults. */
const SCREEN = { lpi: 60, angle: 45, minLpi: 20, maxLpi: 150 } as const;
/** Webtoon slice heights the dialog accepts: platforms take 1280 px (WEBTOON Canvas) up to a few thousand. */
const SLICE_HEIGHT = { min: 400, max: 10_000, initial: WEBTOON_SLICE_HEIGHT } as const;

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
  // A Koma PSD comes back on a new page unless the user asks for the open one.
  const [importIntoCurrent, setImportIntoCurrent] = useState(false);
  const [format, setFormat] = useState<Format>('png');
  const [compression, setCompression] = useState(0);
  const [sliceHeight, setSliceHeight] = useState(String(SLICE_HEIGHT.initial));
  const [sliceType, setSliceType] = useState<'jpg' | 'png'>('jpg');
  const [notice, setNotice] = useState<string | null>(null);
  const [cropMarks, setCropMarks] = useState(false);
  const [tone, setTone] = useState<PageTone['kind']>('colour');
  const [lpi, setLpi] = useState(String(SCREEN.lpi));
  const [angle, setAngle] = useState(String(SCREEN.angle));
  // Which pages a chapter format takes ("1-3, 5"); empty for all of them.
  const [pageRange, setPageRange] = useState('');
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const running = useRef<AbortController | null>(null);
  const busy = progress !== null;
  const comic = session.type === 'COMIC';

  const openDialog = () => {
    setOpen(true);
    void serverPlan(user?.plan).then(setPlan);
  };

  const run = async (task: (signal: AbortSignal) => Promise<void>) => {
    const controller = new AbortController();
    running.current = controller;
    setError(null);
    setNotice(null);
    setReport(null);
    setProgress({ stage: exportText('stage.starting'), done: 0, total: 1 });
    try {
      await task(controller.signal);
    } catch (e) {
      if (controller.signal.aborted) setNotice(t('export.dialog.cancelled'));
      else {
        console.error('Export or import failed', e);
        setError(e instanceof Error ? e.message : String(e));
      }
    } finally {
      running.current = null;
      setProgress(null);
    }
  };

  const screenValid =
    lpi.trim() !== '' &&
    Number(lpi) >= SCREEN.minLpi &&
    Number(lpi) <= SCREEN.maxLpi &&
    angle.trim() !== '' &&
    Number(angle) >= 0 &&
    Number(angle) <= 90;
  const sliceHeightValid =
    /^\d+$/.test(sliceHeight) && Number(sliceHeight) >= SLICE_HEIGHT.min && Number(sliceHeight) <= SLICE_HEIGHT.max;
  const chapterFormat = (CHAPTER_FORMATS as readonly Format[]).includes(format);
  const range = parsePageRange(pageRange, session.editor.doc.pages.length);
  const startExport = () => {
    if (chapterFormat && range.error) {
      setError(pageRangeText(t, range.error));
      return;
    }
    const pages = chapterFormat && pageRange.trim() !== '' && 'pages' in range ? range.pages : undefined;
    if (format === 'webtoon' && !sliceHeightValid) {
      setError(t('export.dialog.sliceHeightInvalid', { min: SLICE_HEIGHT.min, max: SLICE_HEIGHT.max }));
      return;
    }
    if (format === 'pdf' && tone === 'screentone' && !screenValid) {
      setError(t('export.dialog.screenInvalid', { minLpi: SCREEN.minLpi, maxLpi: SCREEN.maxLpi }));
      return;
    }
    return run(async (signal) => {
      const plan = await serverPlan(user?.plan);
      setPlan(plan);
      if (format === 'png') await exportPng(session, plan, setProgress, signal);
      else if (format === 'pngPages' || format === 'cbz')
        await exportPages(session, plan, format, setProgress, signal, pages);
      else if (format === 'pdf') {
        const pageTone: PageTone =
          tone === 'screentone' ? { kind: tone, lpi: Number(lpi), angle: Number(angle) } : { kind: tone };
        const { lowResolution } = await exportPdf(
          session,
          plan,
          { cropMarks, tone: pageTone, ...(pages ? { pages } : {}) },
          setProgress,
          signal,
        );
        if (lowResolution.length > 0) {
          const list = lowResolution.map((l) => t('export.dialog.lowDpiItem', { ...l })).join(', ');
          setNotice(t('export.dialog.lowDpi', { count: lowResolution.length, list }));
        }
      } else if (format === 'webtoon') {
        const { forced } = await exportWebtoon(
          session,
          plan,
          { maxHeight: Number(sliceHeight), format: sliceType, ...(pages ? { pages } : {}) },
          setProgress,
          signal,
        );
        if (forced > 0) setNotice(t('export.dialog.forcedCuts', { count: forced }));
      } else
        await exportPsd(
          session,
          plan,
          { scope: format === 'psdPages' ? 'allPages' : 'page', compression, ...(pages ? { pages } : {}) },
          setProgress,
          signal,
        );
    });
  };

  const startImport = (file: File) =>
    run(async () => {
      if (!isPsdFile(file)) throw new Error(exportText('error.notPsdFile', { file: file.name }));
      setReport(await importPsd(session, file, setProgress, importIntoCurrent ? 'currentPage' : 'newPage'));
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
              {t(
                comic ? 'export.dialog.psdPage' : 'export.dialog.psd',
                comicExportSize(session.editor.doc.comicConfiguration),
              )}
            </label>
            {comic &&
              CHAPTER_FORMATS.map((f) => (
                <label key={f}>
                  <input
                    type="radio"
                    name="export-format"
                    data-testid={`export-format-${f}`}
                    checked={format === f}
                    onChange={() => setFormat(f)}
                  />
                  {t(`export.dialog.${f}`, { dpi: comicPrintGeometry(session.editor.doc.comicConfiguration).dpi })}
                </label>
              ))}
            {chapterFormat && (
              <label>
                {t('export.dialog.pages')}{' '}
                <input
                  type="text"
                  inputMode="numeric"
                  value={pageRange}
                  placeholder={t('export.dialog.pagesHint')}
                  aria-invalid={range.error !== undefined}
                  data-testid="export-pages"
                  onChange={(e) => {
                    setPageRange(e.target.value);
                    setError(null);
                  }}
                />
              </label>
            )}
            {format === 'pdf' && (
              <div className="export-dialog__row">
                <label>
                  <input
                    type="checkbox"
                    checked={cropMarks}
                    data-testid="export-crop-marks"
                    onChange={(e) => setCropMarks(e.target.checked)}
                  />
                  {t('export.dialog.cropMarks')}
                </label>
                <label>
                  {t('export.dialog.tone')}{' '}
                  <select
                    value={tone}
                    data-testid="export-tone"
                    onChange={(e) => {
                      setTone(e.target.value as PageTone['kind']);
                      setError(null);
                    }}
                  >
                    <option value="colour">{t('export.dialog.toneColour')}</option>
                    <option value="grey">{t('export.dialog.toneGrey')}</option>
                    <option value="screentone">{t('export.dialog.toneScreentone')}</option>
                  </select>
                </label>
                {tone === 'screentone' && (
                  <>
                    <label>
                      {t('export.dialog.lpi')}{' '}
                      <input
                        type="number"
                        min={SCREEN.minLpi}
                        max={SCREEN.maxLpi}
                        value={lpi}
                        aria-invalid={!screenValid}
                        data-testid="export-lpi"
                        onChange={(e) => {
                          setLpi(e.target.value);
                          setError(null);
                        }}
                      />
                    </label>
                    <label>
                      {t('export.dialog.angle')}{' '}
                      <input
                        type="number"
                        min={0}
                        max={90}
                        value={angle}
                        aria-invalid={!screenValid}
                        data-testid="export-angle"
                        onChange={(e) => {
                          setAngle(e.target.value);
                          setError(null);
                        }}
                      />
                    </label>
                  </>
                )}
              </div>
            )}
            {format === 'webtoon' && (
              <div className="export-dialog__row">
                <label>
                  {t('export.dialog.sliceHeight')}{' '}
                  <input
                    type="number"
                    inputMode="numeric"
                    min={SLICE_HEIGHT.min}
                    max={SLICE_HEIGHT.max}
                    step={10}
                    value={sliceHeight}
                    aria-invalid={!sliceHeightValid}
                    data-testid="export-slice-height"
                    onChange={(e) => {
                      setSliceHeight(e.target.value);
                      setError(null);
                    }}
                  />
                </label>{' '}
                <label>
                  {t('export.dialog.sliceType')}{' '}
                  <select
                    value={sliceType}
                    data-testid="export-slice-type"
                    onChange={(e) => setSliceType(e.target.value === 'png' ? 'png' : 'jpg')}
                  >
                    <option value="jpg">JPEG</option>
                    <option value="png">PNG</option>
                  </select>
                </label>
              </div>
            )}
            {(format === 'psd' || format === 'psdPages') && (
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
            {comic && (
              <label>
                <input
                  type="checkbox"
                  data-testid="import-into-current"
                  checked={importIntoCurrent}
                  onChange={(e) => setImportIntoCurrent(e.target.checked)}
                />
                {t('export.dialog.importIntoCurrent')}
              </label>
            )}
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
              <button
                type="button"
                className="button button--small"
                data-testid="export-cancel"
                onClick={() => running.current?.abort(new DOMException('Export cancelled', 'AbortError'))}
              >
                {t('export.dialog.cancel')}
              </button>
            </div>
          )}
          {notice && (
            <p className="export-dialog__note" role="status" data-testid="export-notice">
              {notice}
            </p>
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

/** A refused page range in the dialog's words, naming the field. */
function pageRangeText(t: ReturnType<typeof useT>, error: PageRangeError): string {
  switch (error.code) {
    case 'notRange':
      return t('export.dialog.pagesNotRange', { item: error.item });
    case 'beforeFirst':
      return t('export.dialog.pagesBeforeFirst', { item: error.item });
    case 'backwards':
      return t('export.dialog.pagesBackwards', { item: error.item });
    case 'pastLast':
      return t('export.dialog.pagesPastLast', { page: error.page, last: error.last });
  }
}
