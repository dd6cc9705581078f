// A content block that admins edit (admin/edit-content), in the reader's language: title, text
// (plain, one paragraph per line) and image. Read on every visit, so edits show at once.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { readContent } from '../api/content.js';

/** {loading, block}: the block in the current language (English when it has none). */
export function useContent(name) {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'en';
  const [state, setState] = useState({ loading: true, block: null });
  useEffect(() => {
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    readContent(name, language, controller.signal).then(
      (block) => setState({ loading: false, block }),
      // A block is decoration around the page: if it cannot load, the page goes on without it.
      (e) => e.name !== 'AbortError' && setState({ loading: false, block: null }),
    );
    return () => controller.abort();
  }, [name, language]);
  return state;
}

export default function ContentBlock({ block, className, headingLevel = 2 }) {
  if (!block?.title) return null;
  const Heading = `h${headingLevel}`;
  return (
    <article className={`content-block ${className ?? ''}`} data-block={block.block} lang={block.language}>
      <Heading>{block.title}</Heading>
      {block.image && <img src={block.image} alt="" loading="lazy" />}
      {block.description.split('\n').map((line, i) => (line.trim() ? <p key={i}>{line}</p> : null))}
    </article>
  );
}
