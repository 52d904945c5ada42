import { Link } from 'react-router-dom';
import { t } from '../i18n/t';

export function NotFound() {
  return (
    <main className="page-message">
      <h1>{t('app.notFound.title')}</h1>
      <Link to="/app">{t('app.notFound.link')}</Link>
    </main>
  );
}
