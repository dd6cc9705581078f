// A FAQ video: its title, length and thumbnail when the server could look them up (the video
// provider's metadata), else a plain link to watch it.
import { useTranslation } from 'react-i18next';
import { videoDuration } from '../core/index.js';

export default function Video({ video }) {
  const { t } = useTranslation();
  if (!video.title) {
    return (
      <p className="faq-video" data-testid="faq-video-link">
        <a href={video.url} target="_blank" rel="noreferrer noopener">
          {t('faq-video-watch')}
        </a>
      </p>
    );
  }
  const length = videoDuration(video.duration);
  return (
    <a
      className="faq-video card-link"
      href={video.url}
      target="_blank"
      rel="noreferrer noopener"
      data-testid="faq-video"
    >
      {video.thumbnail && <img src={video.thumbnail} alt="" width="160" height="90" loading="lazy" />}
      <span>
        <span className="faq-video-title">{video.title}</span>
        {length && (
          <span className="muted" translate="no">
            {' '}
            · {t('faq-video-length', { length })}
          </span>
        )}
      </span>
    </a>
  );
}
