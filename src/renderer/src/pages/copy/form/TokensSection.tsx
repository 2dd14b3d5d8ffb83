import type { ReactElement } from 'react';
import { useMemo } from 'react';
import type { TokensList } from '@shared/ipc/contract';
import { TokenPicker } from '@renderer/pages/copy/TokenPicker';
import { Section, switchRow, type CopyFormBinding } from './form-binding';

/** Which tokens are copied: every token (some excluded) or the chosen ones. */
export function TokensSection({
  form,
  tokens,
}: {
  form: CopyFormBinding;
  tokens: TokensList | null;
}): ReactElement {
  const protocol = form.values.protocol;
  // What the token pickers offer: none without a protocol, `null` (loading) until the list comes.
  const protocolTokens = useMemo(() => {
    if (!protocol) return [];
    if (!tokens) return null;
    return tokens.groups.find((g) => g.protocol === protocol)?.tokens ?? [];
  }, [tokens, protocol]);
  return (
    <Section title="Tokens">
      {switchRow(
        form,
        'copyAll',
        'Copy every token',
        'copy-form-copy-all',
        'Off: copy only the tokens you choose.',
      )}
      {form.values.copyAll ? (
        <>
          {switchRow(form, 'hasExclude', 'Exclude some tokens', 'copy-form-has-exclude')}
          {form.values.hasExclude ? (
            <div className="span-2">
              <TokenPicker
                label="Tokens to exclude"
                tokens={protocolTokens}
                value={form.values.excludingTokenAddresses}
                onChange={(list) => form.set('excludingTokenAddresses', list)}
                error={form.errorOf('excludingTokenAddresses')}
                testId="copy-form-exclude"
              />
            </div>
          ) : null}
        </>
      ) : (
        <div className="span-2">
          <TokenPicker
            label="Tokens to copy"
            tokens={protocolTokens}
            value={form.values.tokenAddresses}
            onChange={(list) => form.set('tokenAddresses', list)}
            error={form.errorOf('tokenAddresses')}
            testId="copy-form-tokens"
          />
        </div>
      )}
    </Section>
  );
}
