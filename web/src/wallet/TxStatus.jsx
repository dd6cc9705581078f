// What a chain action is doing, announced politely, in the action's own words (actions.js: what
// an approval allows and for what, what is being sent, what was confirmed), rejected or failed
// with its reason, and the transaction's hash with its explorer link. `after` follows the
// confirmation (the purchase's "in your history").
import { useTranslation } from 'react-i18next';
import settings from '../common/settings.js';
import { explorerTx } from '../core/index.js';
import Copyable from '../common/Copyable.jsx';
import { actionWords } from './actions.js';

export default function TxStatus({ step, after = null, testId = 'tx-status' }) {
  const { t } = useTranslation();
  const explorer = step.hash ? explorerTx(settings.chain?.explorerUrl, step.hash) : null;
  const words = step.label?.action ? actionWords(t, step.label.action, step.state, step.label.values) : null;
  return (
    <div
      className="tx-status"
      aria-live="polite"
      data-testid={testId}
      data-state={step.state}
      data-action={step.label?.action}
    >
      {words && step.state !== 'confirmed' && <p>{words}</p>}
      {step.state === 'confirmed' && (
        <p className="notice success">
          {words} {after}
        </p>
      )}
      {step.state === 'rejected' && <p className="muted">{t('tx-rejected')}</p>}
      {step.state === 'failed' && (
        <p className="notice error" role="alert">
          {t(step.key)}
        </p>
      )}
      {step.hash && (
        <p className="tx-hash">
          <span>{t('tx-hash')}</span>{' '}
          {/* Short on screen (a 66-character hash wrapped over four lines on a phone); the whole
              hash in its title, on keyboard focus and copied by a click. */}
          <span data-testid="tx-hash" data-hash={step.hash}>
            <Copyable
              value={step.hash}
              shown={`${step.hash.slice(0, 10)}…${step.hash.slice(-8)}`}
              toastKey="copied-hash"
            />
          </span>{' '}
          {explorer && (
            <a href={explorer} target="_blank" rel="noreferrer noopener">
              {t('tx-explorer')}
            </a>
          )}
        </p>
      )}
    </div>
  );
}
