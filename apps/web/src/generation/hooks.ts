import { useSyncExternalStore } from 'react';
import type { EditorSession } from '../editor/session.ts';
import { controllerOf, type GenerationController, type PlanDialog } from './controller.ts';
import { useObservable } from './observable.ts';
import type { GenerationSettings } from './settings.ts';

/** The session's generation controller; it is created with the editor layout, before any tab renders. */
export function useController(session: EditorSession): GenerationController {
  const controller = controllerOf(session);
  if (!controller) throw new Error('The generation controller is not set up for this session');
  return controller;
}

/** The settings of the tabs; re-renders on every change, and when the server's generation config arrives. */
export function useSettings(controller: GenerationController): GenerationSettings {
  useObservable(controller.config);
  return useSyncExternalStore(
    (cb) => controller.settings.subscribe(cb),
    () => controller.settings.state,
  );
}

export function useDialog(controller: GenerationController): PlanDialog {
  return useSyncExternalStore(
    (cb) => controller.onDialog(cb),
    () => controller.dialog,
  );
}
