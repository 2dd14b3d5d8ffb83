import type { ReactElement } from 'react';
import { useEffect, useRef, useState } from 'react';
import { toast } from '@renderer/stores/toasts';
import { CheckIcon, ClipboardIcon } from './icons';

interface CopyButtonProps {
  text: string;
  /** What is copied, for the button's name: "Copy address 0x…". */
  label: string;
  testId?: string;
}

/** A small icon button that copies `text` and shows a tick for a moment. */
export function CopyButton({ text, label, testId }: CopyButtonProps): ReactElement {
  const [copied, setCopied] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      toast({
        tone: 'error',
        title: 'Could not copy',
        message: 'This window may not use the clipboard right now. Select the text and copy it by hand.',
      });
      return;
    }
    setCopied(true);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setCopied(false), 1_500);
  };

  return (
    <button
      type="button"
      className={`icon-button copy-button${copied ? ' is-copied' : ''}`}
      onClick={() => void copy()}
      aria-label={label}
      title={copied ? 'Copied' : label}
      data-testid={testId}
    >
      {copied ? <CheckIcon /> : <ClipboardIcon />}
      <span className="visually-hidden" aria-live="polite">
        {copied ? 'Copied' : ''}
      </span>
    </button>
  );
}
