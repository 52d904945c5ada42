import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { apiRequest, callFunction } from '../api/http';
import { t } from '../i18n/t';
import { LanguagePicker } from '../login/LoginPage';
import { describeAuthError } from '../login/errors';
import { session } from '../session/session';
import { useSession } from '../session/useSession';
import { Avatar } from '../ui/Avatar';
import { showToast } from '../ui/toast';
import { useDocumentTitle } from '../ui/useDocumentTitle';

const zones = (): string[] => {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return ['UTC'];
  }
};

/** `/app/profile`: name, photo (uploaded; the server crops and resizes it to 256 px) and time zone. */
export function ProfilePage() {
  const { i18n } = useTranslation();
  const state = useSession();
  const user = state.status === 'signed-in' ? state.me.user : undefined;
  const [name, setName] = useState(user?.name ?? '');
  const [timezone, setTimezone] = useState(user?.timezone ?? '');
  const [busy, setBusy] = useState(false);
  const [uploading, setUploading] = useState(false);
  useDocumentTitle(t('profile.title'));
  if (!user) return null;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    try {
      await callFunction('users-update', {
        name: name.trim(),
        timezone: timezone || null,
        language: i18n.language,
      });
      await session.refresh();
      showToast(t('profile.saved'), 'info');
    } catch (err) {
      showToast(describeAuthError(err));
    } finally {
      setBusy(false);
    }
  }

  async function onPhoto(file: File | undefined) {
    if (!file) return;
    setUploading(true);
    try {
      await apiRequest('/api/me/photo', {
        method: 'PUT',
        body: file,
        headers: { 'Content-Type': file.type },
      });
      await session.refresh();
    } catch (err) {
      showToast(describeAuthError(err));
    } finally {
      setUploading(false);
    }
  }

  return (
    <div className="profile">
      <form className="login-card" onSubmit={(e) => void onSubmit(e)}>
        <h1 className="login-title">{t('profile.title')}</h1>
        <div className="profile-photo">
          <Avatar name={user.name ?? ''} image={user.photo} className="profile-avatar" />
          <label className="button">
            {uploading ? t('profile.photoUploading') : t('profile.photoChange')}
            <input
              type="file"
              accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
              className="visually-hidden"
              aria-label={t('profile.photo')}
              onChange={(e) => void onPhoto(e.target.files?.[0])}
            />
          </label>
        </div>
        <label className="field">
          <span className="field-label">{t('profile.name')}</span>
          <input name="name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label className="field">
          <span className="field-label">{t('profile.timezone')}</span>
          <select value={timezone} onChange={(e) => setTimezone(e.target.value)}>
            <option value="">{t('profile.timezoneNone')}</option>
            {zones().map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </select>
        </label>
        <LanguagePicker />
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? t('profile.saving') : t('profile.save')}
        </button>
        <Link to="/app">{t('profile.back')}</Link>
      </form>
    </div>
  );
}
