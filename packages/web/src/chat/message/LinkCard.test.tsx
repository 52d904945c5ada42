// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { LinkCard, linkPreviewsOf } from './LinkCard';
import { MarkdownText } from './MarkdownText';

afterEach(cleanup);

describe('LinkCard', () => {
  const og = {
    og_scrape_url: 'https://news.example.com/a',
    title: 'Housing benefit',
    text: 'How to apply',
    author_name: 'Welfare Office',
    title_link: 'https://news.example.com/canonical',
    image_url: 'https://cdn.example.com/tracker.png',
  };

  it('shows site, title as a new-tab link, and text; never loads the third-party image', () => {
    const { container } = render(<LinkCard attachment={og} />);
    const link = screen.getByRole('link', { name: 'Housing benefit' });
    expect(link.getAttribute('href')).toBe('https://news.example.com/canonical');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    expect(screen.getByText('Welfare Office')).toBeTruthy();
    expect(screen.getByText('How to apply')).toBeTruthy();
    expect(container.querySelector('img')).toBeNull();
  });

  it('never links to javascript: and falls back on the scraped URL', () => {
    render(<LinkCard attachment={{ ...og, title_link: 'javascript:alert(1)' }} />);
    expect(screen.getByRole('link', { name: 'Housing benefit' }).getAttribute('href')).toBe(og.og_scrape_url);
  });

  it('picks only attachments with og_scrape_url', () => {
    expect(linkPreviewsOf([{ type: 'file', title: 'a.pdf' }, og])).toEqual([og]);
  });
});

describe('message text links (remark-gfm)', () => {
  it('makes bare links clickable in a new tab, only http, https and mailto', () => {
    const html = renderToStaticMarkup(
      <MarkdownText
        text="see https://news.example.com/a and www.example.org, mail a@example.no"
        names={[]}
      />,
    );
    expect(html).toContain(
      '<a href="https://news.example.com/a" target="_blank" rel="noopener noreferrer nofollow">https://news.example.com/a</a>',
    );
    expect(html).toContain('href="http://www.example.org"');
    expect(html).toContain('href="mailto:a@example.no"');
    const bad = renderToStaticMarkup(
      <MarkdownText
        text="[x](javascript:alert(1)) [y](data:text/html,hi) [z](/relative) ![i](https://t.example/p.png)"
        names={[]}
      />,
    );
    expect(bad).not.toMatch(/javascript:|data:|href="\/relative"|<img/);
  });
});
