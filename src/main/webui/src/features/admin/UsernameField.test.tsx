import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { UsernameField } from './UsersPage';

function Harness({ serverError }: { serverError?: string }) {
  const [value, setValue] = useState('');
  return <UsernameField value={value} onChange={setValue} serverError={serverError} />;
}

const field = () => screen.getByTestId('user-create-username') as HTMLInputElement;

describe('UsernameField', () => {
  it('shows the rules before anything is typed, with no error', () => {
    render(<Harness />);
    expect(screen.getByTestId('user-create-username-rule').textContent).toContain(
      "2 to 64 characters: letters, digits, '.', '_' and '-', at least one letter or digit.",
    );
    expect(field().getAttribute('aria-invalid')).toBe('false');
  });

  it('says what is wrong while typing, and how a good name is stored', () => {
    render(<Harness />);
    fireEvent.change(field(), { target: { value: 'a' } });
    expect(screen.getByText('2 to 64 characters (this has 1).')).toBeTruthy();
    expect(field().getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(field(), { target: { value: 'has space' } });
    expect(screen.getByText("Only letters a–z, digits, '.', '_' and '-'.")).toBeTruthy();
    fireEvent.change(field(), { target: { value: '...' } });
    expect(screen.getByText('At least one letter or digit.')).toBeTruthy();
    fireEvent.change(field(), { target: { value: 'First.Last' } });
    expect(field().getAttribute('aria-invalid')).toBe('false');
    expect(screen.getByTestId('user-create-username-rule').textContent).toContain('Will be saved as first.last.');
  });

  it("shows the server's refusal under the field", () => {
    render(<Harness serverError="a user 'x' exists already" />);
    expect(screen.getByText("a user 'x' exists already")).toBeTruthy();
    expect(field().getAttribute('aria-invalid')).toBe('true');
  });
});
