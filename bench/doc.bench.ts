/**
 * Document benchmark: encode and decode of a 10-page, 500-layer comic, and 1,000 random commands each undone and
 * redone, with the history memory per command. Baseline in the same run: snapshot history (a structuredClone of the
 * document per command, as editors without patch history do).
 */
import { performance } from 'node:perf_hooks';
import {
  createImageLayer,
  createTextLayer,
  createWorkspaceData,
  decodeWorkspaceData,
  encodeWorkspaceData,
  type WorkspaceData,
} from '@koma/domain';
import {
  Editor,
  moveLayers,
  normalize,
  resizeLayer,
  setVisibility,
  rearrangeLayer,
  updateText,
  type DocState,
} from '@koma/editor';
import { heapUsed, printTable, summarize, median } from './stats.ts';

let seed = 7;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};

function buildWorkspace(): WorkspaceData {
  let n = 0;
  const ids = () => `id${n++}`;
  const data = createWorkspaceData('COMIC', ids);
  for (let p = 1; p < 10; p++) data.pages.push(createWorkspaceData('COMIC', ids).pages[0]!);
  let layers = 0;
  for (const page of data.pages) {
    for (let i = 0; i < 49; i++) {
      const t = { x: i * 10, y: i * 20, size: { width: 512, height: 512 } };
      page.rootLayer.children.push(
        i % 3 === 0
          ? createTextLayer(ids(), t, { text: `Line ${i} of dialogue for page` })
          : createImageLayer(ids(), t, {
              variations: [{ id: `img-${i}-a` }, { id: `img-${i}-b` }],
              params: { prompt: 'a girl with a katana on a rooftop at night, masterpiece' } as never,
            }),
      );
      layers++;
    }
    layers++; // the default panel
  }
  if (layers !== 500) throw new Error(`expected 500 layers, built ${layers}`);
  return decodeWorkspaceData(encodeWorkspaceData(data)).ok
    ? data
    : (() => {
        throw new Error('invalid bench doc');
      })();
}

const data = buildWorkspace();
const saved = JSON.stringify(encodeWorkspaceData(data));
console.log(`workspace: 10 pages, 500 layers, ${(saved.length / 1024).toFixed(0)} KB saved`);

const encodeTimes: number[] = [];
const decodeTimes: number[] = [];
for (let i = 0; i < 30; i++) {
  let t = performance.now();
  JSON.stringify(encodeWorkspaceData(data));
  encodeTimes.push(performance.now() - t);
  t = performance.now();
  const result = decodeWorkspaceData(JSON.parse(saved));
  decodeTimes.push(performance.now() - t);
  if (!result.ok) throw new Error(result.error.message);
}
const parseTimes: number[] = [];
for (let i = 0; i < 30; i++) {
  const t = performance.now();
  JSON.parse(saved);
  parseTimes.push(performance.now() - t);
}
printTable('Codec (ms, median of 30)', [
  { step: 'encode + JSON.stringify', ms: median(encodeTimes) },
  { step: 'JSON.parse + decode', ms: median(decodeTimes) },
  { step: 'baseline: JSON.parse alone', ms: median(parseTimes) },
]);

type Run = (doc: DocState) => void;
function randomCommand(editor: Editor): Run | null {
  const doc = editor.doc;
  const page = doc.pages[Math.floor(random() * doc.pages.length)]!;
  const children = doc.layers[page.rootId]!.children;
  const id = children[Math.floor(random() * children.length)]!;
  const node = doc.layers[id]!;
  const r = random();
  if (r < 0.4) return () => editor.execute(moveLayers, { ids: [id], dx: 5, dy: -3 });
  if (r < 0.6) return () => editor.execute(resizeLayer, { id, corner: 'bottom-right', dx: 4, dy: 4 });
  if (r < 0.75) return () => editor.execute(setVisibility, { ids: [id], visible: !node.visible });
  if (r < 0.9) return () => editor.execute(rearrangeLayer, { id, to: 'front' });
  if (node.type === 'TEXT') return () => editor.execute(updateText, { id, patch: { text: `edited ${r}` } });
  return () => editor.execute(moveLayers, { ids: [id], dx: 1, dy: 1 });
}

function runPatchHistory(): { exec: number[]; undo: number[]; redo: number[]; bytesPerCommand: number } {
  const editor = new Editor(normalize(data, 'COMIC'), { historyLimit: 5000 });
  const exec: number[] = [];
  const undo: number[] = [];
  const redo: number[] = [];
  for (let i = 0; i < 200; i++) randomCommand(editor)?.(editor.doc); // warm-up
  const before = heapUsed();
  for (let i = 0; i < 1000; i++) {
    const run = randomCommand(editor)!;
    let t = performance.now();
    run(editor.doc);
    exec.push(performance.now() - t);
    t = performance.now();
    editor.undo();
    undo.push(performance.now() - t);
    t = performance.now();
    editor.redo();
    redo.push(performance.now() - t);
  }
  const after = heapUsed();
  return { exec, undo, redo, bytesPerCommand: (after - before) / 1000 };
}

function runSnapshotHistory(): { exec: number[]; bytesPerCommand: number } {
  // The baseline: keep a full copy of the document before every command.
  const editor = new Editor(normalize(data, 'COMIC'), { historyLimit: 5000 });
  const snapshots: DocState[] = [];
  const exec: number[] = [];
  const before = heapUsed();
  for (let i = 0; i < 1000; i++) {
    const run = randomCommand(editor)!;
    const t = performance.now();
    snapshots.push(structuredClone(editor.doc));
    run(editor.doc);
    exec.push(performance.now() - t);
  }
  const after = heapUsed();
  if (snapshots.length !== 1000) throw new Error('unreachable');
  return { exec, bytesPerCommand: (after - before) / 1000 };
}

const patch = runPatchHistory();
const snapshot = runSnapshotHistory();
const pe = summarize(patch.exec);
const pu = summarize(patch.undo);
const pr = summarize(patch.redo);
const se = summarize(snapshot.exec);
printTable('1,000 random commands on a 500-layer comic (ms per command)', [
  { history: 'patches: execute', p50: pe.p50, p99: pe.p99, 'bytes/cmd': patch.bytesPerCommand },
  { history: 'patches: undo', p50: pu.p50, p99: pu.p99, 'bytes/cmd': '' },
  { history: 'patches: redo', p50: pr.p50, p99: pr.p99, 'bytes/cmd': '' },
  { history: 'baseline: snapshot + execute', p50: se.p50, p99: se.p99, 'bytes/cmd': snapshot.bytesPerCommand },
]);
printTable('Ratios (patch history / snapshot baseline)', [
  {
    'execute p99': (pe.p99 / se.p99).toFixed(3),
    'memory per command': (patch.bytesPerCommand / snapshot.bytesPerCommand).toFixed(4),
  },
]);
console.log(
  `\ntargets: execute p99 < 1 ms -> ${pe.p99 < 1 ? 'met' : 'NOT met'} (${pe.p99.toFixed(3)} ms); ` +
    `history memory proportional to the change -> ${patch.bytesPerCommand < snapshot.bytesPerCommand / 20 ? 'met' : 'NOT met'}`,
);
if (!(globalThis as { gc?: unknown }).gc) console.log('(run with --expose-gc for memory figures)');
