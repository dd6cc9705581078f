// Profile avatar (docs/product/screens.md#avatar): pick a JPEG or PNG, crop it in a 390×295 area
// (the crop never smaller than a radius of 30 px of the image: an image under 60 px is refused and
// the zoom stops where the crop would be smaller; nothing is upscaled), square or round, Close or
// Save; Save uploads a PNG (quality 1) and shows the new image.
import { lazy, Suspense, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { uploadAvatar } from './profileApi.js';
import { toastError } from '../common/toast.jsx';
import Dialog from '../common/Dialog.jsx';

export const CROP_AREA = { width: 390, height: 295 };
export const MIN_CROP_RADIUS = 30;
const TYPES = ['image/jpeg', 'image/png'];
const MAX_ZOOM = 4;
// The cropper (a sixth of the app's first file with its wheel helper) loads when a picture is picked.
const Cropper = lazy(() => import(/* webpackChunkName: "cropper" */ 'react-easy-crop'));

/** Draws the cropped area onto a canvas (round = transparent outside the circle) → PNG blob. */
async function cropToPng(src, area, round) {
  const image = await new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = reject;
    img.src = src;
  });
  const side = Math.round(area.width);
  const canvas = document.createElement('canvas');
  canvas.width = side;
  canvas.height = side;
  const ctx = canvas.getContext('2d');
  if (round) {
    ctx.beginPath();
    ctx.arc(side / 2, side / 2, side / 2, 0, Math.PI * 2);
    ctx.clip();
  }
  ctx.drawImage(image, area.x, area.y, area.width, area.height, 0, 0, side, side);
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/png', 1));
}

/**
 * The image picked (a JPEG or PNG, its short side at least twice the smallest crop radius) and
 * the most the zoom may go: where the crop is 60 image pixels wide (radius 30).
 */
function usePickedImage() {
  const { t } = useTranslation();
  const [src, setSrc] = useState(null);
  const [maxZoom, setMaxZoom] = useState(MAX_ZOOM);
  const pick = (event) => {
    const file = event.target.files?.[0];
    if (!file) return;
    if (!TYPES.includes(file.type)) {
      toast.error(t('avatar-type'));
      event.target.value = '';
      return;
    }
    setSrc(URL.createObjectURL(file));
  };
  const onMediaLoaded = ({ naturalWidth, naturalHeight }) => {
    const short = Math.min(naturalWidth, naturalHeight);
    if (short < MIN_CROP_RADIUS * 2) {
      toast.error(t('avatar-too-small', { pixels: MIN_CROP_RADIUS * 2 }));
      setSrc(null);
      return;
    }
    // At zoom 1 the crop spans the image's short side; at zoom z, a z-th of it.
    setMaxZoom(Math.min(MAX_ZOOM, short / (MIN_CROP_RADIUS * 2)));
  };
  return { src, setSrc, pick, maxZoom, onMediaLoaded };
}

/** The picked image under the crop (the cropper's code loads when first needed). */
function Crop({ src, view, onCrop, onZoom, onArea, onLoaded }) {
  const { t } = useTranslation();
  const { crop, zoom, round, maxZoom } = view;
  return (
    <Suspense fallback={<div className="boot-spinner" role="status" aria-busy="true" aria-label={t('loading')} />}>
      <Cropper
        image={src}
        crop={crop}
        zoom={zoom}
        aspect={1}
        cropShape={round ? 'round' : 'rect'}
        onCropChange={onCrop}
        onZoomChange={onZoom}
        onCropComplete={onArea}
        onMediaLoaded={onLoaded}
        maxZoom={maxZoom}
      />
    </Suspense>
  );
}

/** The zoom and the round or square crop. */
function CropControls({ zoom, maxZoom, onZoom, round, onRound }) {
  const { t } = useTranslation();
  return (
    <div className="crop-controls">
      <label>
        {t('avatar-zoom')}
        <input
          type="range"
          min={1}
          max={maxZoom}
          step={0.05}
          value={zoom}
          onChange={(e) => onZoom(Number(e.target.value))}
        />
      </label>
      <label>
        <input type="checkbox" checked={round} onChange={(e) => onRound(e.target.checked)} /> {t('avatar-round')}
      </label>
    </div>
  );
}

export default function AvatarModal({ open, userId, onClose, onSaved }) {
  const { t } = useTranslation();
  const { src, setSrc, pick, maxZoom, onMediaLoaded } = usePickedImage();
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [round, setRound] = useState(true);
  const [area, setArea] = useState(null);
  const [saving, setSaving] = useState(false);

  const onCropComplete = useCallback((_, pixels) => setArea(pixels), []);

  const close = () => {
    setSrc(null);
    setZoom(1);
    onClose();
  };

  const save = async () => {
    if (!src || !area) return;
    setSaving(true);
    try {
      const blob = await cropToPng(src, area, round);
      const saved = await uploadAvatar(blob, userId);
      toast.success(t('imageSaved'));
      onSaved(saved);
      close();
    } catch (e) {
      toastError(e);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog
      open={open}
      title={t('avatar-title')}
      onClose={close}
      actions={
        <>
          <button type="button" className="button secondary" onClick={close}>
            {t('avatar-close')}
          </button>
          <button type="button" className="button" onClick={save} disabled={!src || saving} aria-busy={saving}>
            {t('avatar-save')}
          </button>
        </>
      }
    >
      <label className="button secondary file-pick">
        {t('avatar-pick')}
        <input type="file" accept={TYPES.join(',')} onChange={pick} data-testid="avatar-file" />
      </label>
      <div className="crop-area" style={CROP_AREA}>
        {src ? (
          <Crop
            src={src}
            view={{ crop, zoom, round, maxZoom }}
            onCrop={setCrop}
            onZoom={setZoom}
            onArea={onCropComplete}
            onLoaded={onMediaLoaded}
          />
        ) : (
          <p className="muted">{t('avatar-empty')}</p>
        )}
      </div>
      <CropControls zoom={zoom} maxZoom={maxZoom} onZoom={setZoom} round={round} onRound={setRound} />
    </Dialog>
  );
}
