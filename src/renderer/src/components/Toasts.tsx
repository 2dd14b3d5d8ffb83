import type { ReactElement } from 'react';
import { useToasts } from '@renderer/stores/toasts';
import { CheckIcon, CloseIcon, InfoIcon, WarningIcon } from './icons';

const toneIcon = { error: WarningIcon, success: CheckIcon, info: InfoIcon } as const;

/** The toast region: errors are alerts (read out at once), the rest are polite statuses. */
export function Toasts(): ReactElement {
  const toasts = useToasts((s) => s.toasts);
  const dismiss = useToasts((s) => s.dismiss);
  return (
    <section className="toasts" aria-label="Notifications" data-testid="toasts">
      {toasts.map((t) => {
        const Icon = toneIcon[t.tone];
        return (
          <div
            key={t.id}
            className={`toast toast-${t.tone}`}
            role={t.tone === 'error' ? 'alert' : 'status'}
            data-testid="toast"
            data-code={t.code ?? undefined}
          >
            <Icon />
            <div className="toast-body">
              <p className="toast-title">
                {t.title}
                {t.count > 1 ? <span className="toast-count"> ×{t.count}</span> : null}
              </p>
              <p className="toast-message">{t.message}</p>
            </div>
            <button
              type="button"
              className="icon-button toast-close"
              onClick={() => dismiss(t.id)}
              aria-label="Dismiss notification"
            >
              <CloseIcon />
            </button>
          </div>
        );
      })}
    </section>
  );
}
