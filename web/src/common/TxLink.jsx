// A transaction hash, short, linking to the configured block explorer when there is one.
import { explorerTx } from '../core/index.js';
import settings from './settings.js';

export default function TxLink({ hash }) {
  if (!hash) return <span className="muted">—</span>;
  const short = `${hash.slice(0, 10)}…`;
  const link = explorerTx(settings.chain?.explorerUrl, hash);
  return link ? (
    <a href={link} target="_blank" rel="noreferrer noopener" translate="no" title={hash}>
      {short}
    </a>
  ) : (
    <code translate="no" title={hash}>
      {short}
    </code>
  );
}
