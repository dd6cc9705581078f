// The signed-in user's picture in the top bar; opens the avatar modal.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { avatarUrl } from './profileApi.js';
import { KEYS, readJson, writeJson } from '../common/storage.js';
import AvatarModal from './AvatarModal.jsx';

export default function Avatar() {
  const { t } = useTranslation();
  const user = readJson(KEYS.userInfo);
  const [open, setOpen] = useState(false);
  const [image, setImage] = useState(() =>
    user?.hasAvatar && user.avatarKey ? avatarUrl('/avatars/', user.id, user.avatarKey) : null,
  );
  if (!user) return null;
  const saved = ({ path, key }) => {
    setImage(avatarUrl(path, user.id, key, Date.now()));
    writeJson(KEYS.userInfo, { ...user, hasAvatar: true, avatarKey: key });
  };
  const initials = `${user.names?.[0] ?? ''}${user.lastnames?.[0] ?? ''}`;
  return (
    <>
      <button type="button" className="avatar-button" onClick={() => setOpen(true)} aria-label={t('avatar-title')}>
        {image ? (
          <img src={image} alt="" data-testid="avatar-image" />
        ) : (
          <span aria-hidden="true" translate="no">
            {initials}
          </span>
        )}
      </button>
      <AvatarModal open={open} userId={user.id} onClose={() => setOpen(false)} onSaved={saved} />
    </>
  );
}
