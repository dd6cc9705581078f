// A content block that admins edit (admin/edit-content), in the reader's language: title, text
// (plain, one paragraph per line) and image. Read on every visit, so edits show at once.
import { useTranslation } from 'react-i18next';
import { readContent } from './content.js';
import useLoad from './useLoad.js';

/** {loading, block}: the block in the current language (English when it has none). */
export function useContent(name) {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'en';
  // A block is decoration around the page: if it cannot load, the page goes on without it.
  const { loading, data } = useLoad((signal) => readContent(name, language, signal), [name, language]);
  return { loading, block: data };
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
