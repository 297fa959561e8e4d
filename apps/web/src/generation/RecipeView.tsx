import { findModelById } from '@koma/domain';
import type { LayerNode } from '@koma/editor';
import type { EditorSession } from '../editor/session.ts';
import { useT } from '../i18n/index.ts';
import { BuiltinNote } from './BuiltinNote.tsx';
import { useController } from './hooks.ts';
import { useObservable } from './observable.ts';
import { settingsFromRecipe } from './recipe.ts';
import { resultsOf } from './results.ts';
import './i18n-jobs.ts';
import './results.css';

/** How the shown picture was made (its recipe), with "Use these settings"; the preview engine says what it is. */
export function RecipeView({ session, node }: { session: EditorSession; node: LayerNode<'IMAGE'> }) {
  const t = useT();
  const controller = useController(session);
  const results = resultsOf(session);
  useObservable(results.version);
  const variation = node.data.variations[node.data.variationsIdx];
  if (!variation) return null;
  const recipe = results.recipe(variation.id);
  if (recipe === 'loading') return <p className="muted small">{t('generation.recipe.loading')}</p>;
  if (recipe === null) {
    return (
      <p className="muted small" data-testid="recipe-none">
        {t('generation.recipe.none')}
      </p>
    );
  }
  const row = (label: string, value: string | number | null, testId: string) => (
    <>
      <dt>{label}</dt>
      <dd data-testid={testId}>{value ?? '—'}</dd>
    </>
  );
  return (
    <details className="gen-recipe" data-testid="recipe" data-engine={recipe.engine}>
      <summary>{t('generation.recipe.title')}</summary>
      {recipe.engine === 'builtin' && <BuiltinNote session={session} />}
      <dl>
        {row(t('generation.recipe.model'), findModelById(recipe.model)?.name ?? recipe.model, 'recipe-model')}
        {row(t('generation.recipe.prompt'), recipe.prompt, 'recipe-prompt')}
        {row(t('generation.recipe.negative'), recipe.negativePrompt, 'recipe-negative')}
        {row(t('generation.recipe.seed'), recipe.seed, 'recipe-seed')}
        {row(t('generation.recipe.steps'), recipe.steps, 'recipe-steps')}
        {row(t('generation.recipe.cfg'), recipe.cfg, 'recipe-cfg')}
        {row(
          t('generation.recipe.loras'),
          recipe.loras.length === 0
            ? t('generation.recipe.noLoras')
            : recipe.loras.map((l) => `${l.name} ×${l.strength}`).join(', '),
          'recipe-loras',
        )}
        {row(t('generation.recipe.engine'), recipe.engine, 'recipe-engine')}
      </dl>
      <button
        type="button"
        className="button button--small"
        data-testid="recipe-use"
        onClick={() => {
          controller.settings.update(settingsFromRecipe(controller.settings.state, recipe));
          session.ui.notify(t('generation.recipe.used'));
        }}
      >
        {t('generation.recipe.use')}
      </button>
    </details>
  );
}
