import type { ReactElement, ReactNode } from 'react';

interface EmptyStateProps {
  title: string;
  /** One or two sentences: what is missing and what to do about it. */
  children: ReactNode;
  icon?: ReactNode;
  action?: ReactNode;
  testId?: string;
}

/** What a page or panel shows when it has nothing to list. */
export function EmptyState({ title, children, icon, action, testId }: EmptyStateProps): ReactElement {
  return (
    <div className="empty-state" data-testid={testId}>
      {icon ? <div className="empty-state-icon">{icon}</div> : null}
      <p className="empty-state-title">{title}</p>
      <div className="empty-state-text">{children}</div>
      {action ? <div className="empty-state-action">{action}</div> : null}
    </div>
  );
}

interface ReadFailedProps {
  /** "The wallet could not be read". */
  title: string;
  message: string;
  /** A reload is under way: the button waits. Omitted where the panel shows no reload state. */
  retrying?: boolean;
  onRetry: () => void;
}

/** A panel whose data could not be read: the reason in words and a Retry button. */
export function ReadFailed({ title, message, retrying, onRetry }: ReadFailedProps): ReactElement {
  return (
    <EmptyState
      title={title}
      action={
        <button type="button" className="button" onClick={onRetry} disabled={retrying}>
          {retrying ? 'Retrying…' : 'Retry'}
        </button>
      }
    >
      <p>{message}</p>
    </EmptyState>
  );
}
