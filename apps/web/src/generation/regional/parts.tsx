// Pieces both composite sections use: a prompt box that commits on leaving it (one undo step per edit, not per
// key), the list of what stops a Generate, and the Generate button with its price.
import type { ReactNode } from 'react';
import { costOf, type CompositeIssue } from '@koma/domain';
import { useT } from '../../i18n/index.ts';

export function PromptBox(props: {
  label: string;
  value: string;
  rows?: number;
  testId: string;
  onCommit: (value: string) => void;
}): ReactNode {
  return (
    <label className="field">
      <span>{props.label}</span>
      <textarea
        // Keyed on the value so an undo (or any change from elsewhere) shows up in the box.
        key={props.value}
        rows={props.rows ?? 2}
        defaultValue={props.value}
        data-testid={props.testId}
        onBlur={(e) => e.target.value !== props.value && props.onCommit(e.target.value)}
      />
    </label>
  );
}

export function IssueList({ issues, testId }: { issues: readonly CompositeIssue[]; testId: string }): ReactNode {
  const t = useT();
  if (issues.length === 0) return null;
  return (
    <ul className="gen-composite-issues" role="alert" data-testid={testId}>
      {issues.map((issue, i) => (
        <li key={i}>{t(`generation.composite.issues.${issue.code}`, { n: (issue.index ?? 0) + 1 })}</li>
      ))}
    </ul>
  );
}

export function CompositeGenerateButton(props: {
  kind: 'regional' | 'smd';
  label: string;
  testId: string;
  onClick: () => void;
}): ReactNode {
  const t = useT();
  // The server charges costOfRequest, which for these kinds is costOf({ kind }): one SDXL image.
  const credits = costOf({ kind: props.kind });
  return (
    <div className="gen-generate">
      <button
        type="button"
        className="button button--primary gen-generate__button"
        data-testid={props.testId}
        onClick={props.onClick}
      >
        {props.label}
        <span className="gen-cost" data-testid={`${props.testId}-cost`}>
          {t('generation.prompt.cost', { credits })}
        </span>
      </button>
    </div>
  );
}
