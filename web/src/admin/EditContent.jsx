// admin/edit-content: the title, text and image of each content block user pages show (the
// private-protocol page and the dashboard notice), per language. Saved blocks show on the user
// pages at their next visit, without a redeploy. Beside the form, the block as members reading
// that language will see it, as it is typed.
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { api } from '../common/client.js';
import { uploadContentImage } from './content.js';
import { contentBlocks } from '../core/index.js';
import settings from '../common/settings.js';
import useCoreForm from '../common/useCoreForm.js';
import TextField, { FieldError } from '../common/TextField.jsx';
import useSubmit from '../common/useSubmit.js';
import Spinner from '../common/Spinner.jsx';
import ContentBlock from '../common/ContentBlock.jsx';
import { toastError } from '../common/toast.jsx';
import useLoad from '../common/useLoad.js';

const IMAGE_TYPES = ['image/png', 'image/jpeg'];

/** A chosen file as an address the preview can show (released when it changes). */
function useFileUrl(file) {
  const [url, setUrl] = useState(null);
  useEffect(() => {
    if (!file) return setUrl(null);
    const made = URL.createObjectURL(file);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [file]);
  return url;
}

/** The block's image now (or none), a new one to choose, and removing the stored one. */
function ImageField({ image, removable, onRemove, fileRef, onPick, error, errorId }) {
  const { t } = useTranslation();
  return (
    <fieldset className="field content-image">
      <legend>{t('content-image')}</legend>
      {image ? (
        <img src={image} alt={t('content-image-current')} />
      ) : (
        <p className="muted">{t('content-image-none')}</p>
      )}
      <input
        ref={fileRef}
        type="file"
        accept={IMAGE_TYPES.join(',')}
        aria-label={t('content-image-choose')}
        onChange={onPick}
      />
      <FieldError id={errorId} error={error} />
      {removable && (
        <button type="button" className="button secondary small" onClick={onRemove}>
          {t('content-image-remove')}
        </button>
      )}
    </fieldset>
  );
}

/** The block as members will see it, in the language being edited. */
function Preview({ name, language, values, image }) {
  const { t } = useTranslation();
  const previewId = useId();
  return (
    <section className="content-preview" aria-labelledby={previewId} data-testid="content-preview">
      <h2 id={previewId}>{t('content-preview', { language: t(`language-${language}`) })}</h2>
      {values.title ? (
        <ContentBlock
          block={{
            block: name,
            language,
            title: values.title,
            description: values.description,
            image,
          }}
        />
      ) : (
        <p className="muted">{t('content-preview-empty')}</p>
      )}
    </section>
  );
}

function BlockForm({ name, language, stored, onSaved }) {
  const { t } = useTranslation();
  const descriptionId = useId();
  const fileRef = useRef(null);
  const form = useCoreForm(
    { title: { rule: 'contentTitle' }, description: { rule: 'contentDescription' } },
    { title: stored?.title ?? '', description: stored?.description ?? '' },
  );
  const [file, setFile] = useState(null);
  const [clearImage, setClearImage] = useState(false);
  const [fileError, setFileError] = useState(null);

  const pick = (event) => {
    const chosen = event.target.files?.[0] ?? null;
    const wrong =
      chosen &&
      (!IMAGE_TYPES.includes(chosen.type)
        ? 'content-image-type'
        : chosen.size > settings.maxImageBytes
          ? 'content-image-size'
          : null);
    setFileError(wrong);
    setFile(wrong ? null : chosen);
    if (chosen && !wrong) setClearImage(false);
  };

  const [sending, submit] = useSubmit(async () => {
    if (!form.validateAll() || fileError) return;
    const body = { title: form.values.title, description: form.values.description, clearImage };
    let saved = await api(`admin/content/${name}/${language}`, { method: 'PUT', body });
    if (file) saved = await uploadContentImage(name, language, file);
    setFile(null);
    setClearImage(false);
    if (fileRef.current) fileRef.current.value = '';
    onSaved(saved);
    toast.success(t('content-saved'));
  });

  const image = clearImage ? null : stored?.image;
  const chosenUrl = useFileUrl(file);
  return (
    <div className="content-editor">
      <form
        className="form content-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <TextField name="title" label={t('content-title')} form={form} />
        <div className="field">
          <label htmlFor={descriptionId}>{t('content-description')}</label>
          <textarea
            id={descriptionId}
            rows={8}
            value={form.values.description}
            aria-invalid={Boolean(form.errors.description)}
            aria-describedby={`${descriptionId}-error`}
            onChange={(e) => form.set('description', e.target.value)}
          />
          <FieldError id={`${descriptionId}-error`} error={form.errors.description} />
        </div>
        <ImageField
          image={image}
          removable={Boolean(stored?.image) && !clearImage}
          onRemove={() => setClearImage(true)}
          fileRef={fileRef}
          onPick={pick}
          error={fileError}
          errorId={`${descriptionId}-file`}
        />
        <button type="submit" className="button" disabled={sending} aria-busy={sending}>
          {sending ? t('content-saving') : t('content-save')}
        </button>
      </form>
      <Preview name={name} language={language} values={form.values} image={chosenUrl ?? image} />
    </div>
  );
}

export default function EditContent() {
  const { t, i18n } = useTranslation();
  const [edited, setBlocks] = useState(null);
  const [blockNames] = useState(contentBlocks);
  const [name, setName] = useState(blockNames[0]);
  const [language, setLanguage] = useState(
    settings.languages.includes(i18n.resolvedLanguage) ? i18n.resolvedLanguage : settings.languages[0],
  );
  const blockId = useId();
  const languageId = useId();

  const listed = useLoad((signal) => api('admin/content', { signal }), [], { onError: toastError });
  // What the server listed, then each save applied on top of it.
  const blocks = edited ?? (listed.loading ? null : (listed.data?.blocks ?? []));

  const saved = useCallback(
    (block) =>
      setBlocks((all) => [
        ...(all ?? listed.data?.blocks ?? []).filter((b) => b.block !== block.block || b.language !== block.language),
        block,
      ]),
    [listed.data],
  );
  const stored = blocks?.find((b) => b.block === name && b.language === language);
  return (
    <section className="page admin-page">
      <h1>{t('admin-menu-edit-content')}</h1>
      <p className="muted">{t('content-help')}</p>
      <div className="content-choice">
        <div className="field">
          <label htmlFor={blockId}>{t('content-block')}</label>
          <select id={blockId} value={name} onChange={(e) => setName(e.target.value)}>
            {blockNames.map((b) => (
              <option key={b} value={b}>
                {t(`content-block-${b}`)}
              </option>
            ))}
          </select>
        </div>
        {/* Radios: one tab stop, arrow keys move between languages. */}
        <fieldset className="segmented">
          <legend>{t('content-language')}</legend>
          {settings.languages.map((l) => (
            <label key={l}>
              <input
                type="radio"
                name={languageId}
                value={l}
                checked={language === l}
                onChange={() => setLanguage(l)}
              />
              <span>{t(`language-${l}`)}</span>
            </label>
          ))}
        </fieldset>
      </div>
      {blocks === null ? (
        <Spinner />
      ) : (
        <BlockForm
          key={`${name}:${language}:${stored?.updatedAt ?? 0}`}
          name={name}
          language={language}
          stored={stored}
          onSaved={saved}
        />
      )}
    </section>
  );
}
