import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import i18n from '../../i18n';
import { SearchForm } from './SearchForm';

describe('SearchForm', () => {
  it('searches for the trimmed text only when sent, by Enter or by the button', () => {
    const onSearch = vi.fn();
    render(<SearchForm testId="lab-search" placeholder="Name or slug" onSearch={onSearch} />);
    const input = screen.getByTestId('lab-search');
    expect(input.getAttribute('placeholder')).toBe('Name or slug');
    expect(screen.getByRole('searchbox', { name: 'Search' })).toBe(input);
    fireEvent.change(input, { target: { value: '  vision ' } });
    expect(onSearch).not.toHaveBeenCalled();
    fireEvent.submit(screen.getByRole('search'));
    expect(onSearch).toHaveBeenLastCalledWith('vision');
    fireEvent.change(input, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(onSearch).toHaveBeenLastCalledWith('');
    expect(onSearch).toHaveBeenCalledTimes(2);
  });

  it('speaks Chinese', async () => {
    await i18n.changeLanguage('zh-CN');
    try {
      render(<SearchForm testId="lab-search" placeholder="名称" onSearch={() => undefined} />);
      expect(screen.getByRole('button').textContent).toBe(i18n.t('common.search'));
      expect(screen.getByRole('button').textContent).not.toBe('Search');
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
