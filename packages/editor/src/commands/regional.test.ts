import { describe, expect, it } from 'vitest';
import { decodeWorkspaceData, encodeWorkspaceData } from '@koma/domain';
import { makeEditor, ok } from '../../test/support.ts';
import { denormalize, normalize } from '../store/normalize.ts';
import { addRegion, drawRegion, removeRegion, updateRegion } from './regional.ts';
import {
  addSketchMapBrush,
  addSketchMapStroke,
  clearSketchMapBrush,
  removeSketchMapBrush,
  setSketchMapBackground,
  updateSketchMapBrush,
} from './sketch-map.ts';

const rect = { x0: 0.1, y0: 0.2, x1: 0.5, y1: 0.6 };

describe('regional prompt commands', () => {
  it('drawing a new region adds it with its box in one undo step; undo and redo', () => {
    const editor = makeEditor();
    const gesture = editor.beginGesture(drawRegion);
    gesture.update({ index: 0, rect: { ...rect, x1: 0.2 }, color: '#e8590c' });
    gesture.update({ index: 0, rect, color: '#e8590c', negativePrompt: 'lowres' });
    expect(gesture.commit().ok).toBe(true);
    expect(editor.doc.regionalPrompts).toEqual([{ color: '#e8590c', prompt: '', negativePrompt: 'lowres', rect }]);
    expect(editor.historySize.undo).toBe(1);
    expect(editor.undoName).toBe('Draw region');
    editor.undo();
    expect(editor.doc.regionalPrompts).toEqual([]);
    editor.redo();
    expect(editor.doc.regionalPrompts[0]?.rect).toEqual(rect);
    expect(editor.dirty).toBe(true);
  });

  it('edits and removes regions, each undoable', () => {
    const editor = makeEditor();
    const index = ok(editor.execute(addRegion, { color: '#f00' }));
    ok(editor.execute(updateRegion, { index, patch: { prompt: 'a knight', negativePrompt: 'blurry' } }));
    ok(editor.execute(drawRegion, { index, rect, color: '#f00' }));
    expect(editor.doc.regionalPrompts[0]).toEqual({
      color: '#f00',
      prompt: 'a knight',
      negativePrompt: 'blurry',
      rect,
    });
    ok(editor.execute(removeRegion, { index }));
    expect(editor.doc.regionalPrompts).toEqual([]);
    editor.undo();
    expect(editor.doc.regionalPrompts[0]?.prompt).toBe('a knight');
    editor.undo();
    expect(editor.doc.regionalPrompts[0]?.rect).toBeNull();
  });

  it('refuses a 17th region, a box outside the frame and a missing region', () => {
    const editor = makeEditor();
    for (let i = 0; i < 16; i++) ok(editor.execute(addRegion, { color: '#f00' }));
    expect(editor.execute(addRegion, { color: '#f00' })).toEqual({
      ok: false,
      error: 'Error executing command: At most 16 regions',
    });
    const outside = editor.execute(updateRegion, { index: 0, patch: { rect: { ...rect, x1: 1.5 } } });
    expect(outside.ok).toBe(false);
    expect(editor.execute(removeRegion, { index: 16 }).ok).toBe(false);
    expect(editor.execute(updateRegion, { index: 0, patch: { color: 'red' } }).ok).toBe(false);
  });
});

describe('sketch-map commands', () => {
  it('a stroke with no brush yet adds the brush (radius of the stroke) in the same undo step', () => {
    const editor = makeEditor();
    const gesture = editor.beginGesture(addSketchMapStroke);
    gesture.update({ index: 0, points: [0.5, 0.5], radius: 80, color: '#2f9e44' });
    gesture.update({ index: 0, points: [0.5, 0.5, 0.6, 0.55], radius: 80, color: '#2f9e44' });
    gesture.commit();
    expect(editor.doc.sketchMap.brushes).toEqual([
      {
        color: '#2f9e44',
        radius: 80,
        prompt: '',
        negativePrompt: '',
        strokes: [{ points: [0.5, 0.5, 0.6, 0.55], radius: 80, erase: false }],
      },
    ]);
    expect(editor.historySize.undo).toBe(1);
    editor.undo();
    expect(editor.doc.sketchMap.brushes).toEqual([]);
  });

  it('brushes start at radius 80; strokes, erasing, clearing, editing and removing are undoable', () => {
    const editor = makeEditor();
    const index = ok(editor.execute(addSketchMapBrush, { color: '#00f', prompt: 'sky' }));
    expect(editor.doc.sketchMap.brushes[index]?.radius).toBe(80);
    ok(editor.execute(addSketchMapStroke, { index, points: [0.1, 0.1, 0.9, 0.1], radius: 80 }));
    ok(editor.execute(addSketchMapStroke, { index, points: [0.5, 0.1], radius: 40, erase: true }));
    expect(editor.doc.sketchMap.brushes[index]?.strokes.map((s) => s.erase)).toEqual([false, true]);
    ok(editor.execute(clearSketchMapBrush, { index }));
    expect(editor.doc.sketchMap.brushes[index]?.strokes).toEqual([]);
    editor.undo();
    expect(editor.doc.sketchMap.brushes[index]?.strokes).toHaveLength(2);
    ok(editor.execute(updateSketchMapBrush, { index, patch: { radius: 120, negativePrompt: 'clouds' } }));
    expect(editor.doc.sketchMap.brushes[index]).toMatchObject({ radius: 120, negativePrompt: 'clouds' });
    ok(editor.execute(setSketchMapBackground, { prompt: 'a meadow' }));
    ok(editor.execute(removeSketchMapBrush, { index }));
    expect(editor.doc.sketchMap).toEqual({ brushes: [], backgroundPrompt: 'a meadow' });
    editor.undo();
    expect(editor.doc.sketchMap.brushes).toHaveLength(1);
  });

  it('refuses an empty stroke, a bad radius and a new brush without a colour', () => {
    const editor = makeEditor();
    expect(editor.execute(addSketchMapStroke, { index: 0, points: [], radius: 10, color: '#000' }).ok).toBe(false);
    expect(editor.execute(addSketchMapStroke, { index: 0, points: [0, 0], radius: 0, color: '#000' }).ok).toBe(false);
    expect(editor.execute(addSketchMapStroke, { index: 0, points: [0, 0], radius: 10 }).ok).toBe(false);
    expect(editor.execute(addSketchMapStroke, { index: 3, points: [0, 0], radius: 10, color: '#000' }).ok).toBe(false);
    expect(editor.doc.sketchMap.brushes).toEqual([]);
  });
});

describe('saving regional prompts and the sketch map', () => {
  it('survives denormalize, the codec and normalize', () => {
    const editor = makeEditor();
    ok(editor.execute(drawRegion, { index: 0, rect, color: '#f00' }));
    ok(editor.execute(addSketchMapStroke, { index: 0, points: [0.2, 0.3], radius: 50, color: '#0f0' }));
    ok(editor.execute(setSketchMapBackground, { prompt: 'a beach' }));
    const saved = JSON.parse(JSON.stringify(encodeWorkspaceData(denormalize(editor.doc)))) as unknown;
    const decoded = decodeWorkspaceData(saved);
    if (!decoded.ok) throw new Error(decoded.error.message);
    const doc = normalize(decoded.value, 'COMIC');
    expect(doc.regionalPrompts).toEqual(editor.doc.regionalPrompts);
    expect(doc.sketchMap).toEqual(editor.doc.sketchMap);
  });
});
